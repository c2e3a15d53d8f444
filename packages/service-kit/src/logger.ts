import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, one line each, named by service; the launcher prefixes and pretty-prints them. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
