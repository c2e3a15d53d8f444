import express from 'express';
import type { Logger } from '@forgeline/service-kit/logger';
import { collectProcessMetrics, metricsHandler } from '@forgeline/service-kit/metrics';
import { serve, type Served } from '@forgeline/service-kit/serve';

/**
 * The gateway's own /metrics (#37), on a port of its own (METRICS_PORT): the gateway's main port is the public's, and
 * nothing there may answer with the process's internals. Prometheus scrapes this port from inside the network.
 */
export async function serveGatewayMetrics(opts: { port: number; host: string; logger: Logger }): Promise<Served> {
  collectProcessMetrics();
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsHandler);
  const served = await serve(app, { port: opts.port, host: opts.host, logger: opts.logger, handleSignals: false });
  opts.logger.info({ port: served.port }, 'gateway metrics served at /metrics');
  return served;
}
