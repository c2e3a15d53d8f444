import pino, { type Logger } from 'pino';
import { activeTraceIds, tracingOn } from './tracing.ts';

export type { Logger };

/** JSON logs on stdout, one line each, named by service; the launcher prefixes and pretty-prints them. */
/** `destination` (default stdout) takes each line as written: a test reads what a service logged. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info', destination?: { write: (line: string) => void }): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // With tracing on, every line written inside a traced request or job names its trace (log pipelines join on these).
    ...(tracingOn ? { mixin: traceMixin } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

function traceMixin(): object {
  const ids = activeTraceIds();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
