import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, waitForPort } from './net.ts';
import { isExecutable, startServerProcess } from './server-process.ts';

export interface RunningNginx {
  /** The port the server config was given to listen on. */
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  stop: () => Promise<void>;
}

/** Debian's nginx, unless NGINX_BIN says otherwise. */
export function nginxBinary(): string {
  return process.env.NGINX_BIN || '/usr/sbin/nginx';
}

export interface NginxOptions {
  /** A server block (or several) as conf.d/default.conf would hold it, listening on `port` (127.0.0.1). */
  server: (port: number) => string;
  /** Further files beside it (snippets the server includes by a relative path), by name. */
  files?: Record<string, string>;
}

/**
 * Start a throwaway nginx (not a daemon, its prefix, temp folders and logs in a temp folder) serving `server` inside
 * a minimal http block. The config is checked with `nginx -t` first (its output in the error when refused). Returns
 * `{ skip }` with the reason when the binary is absent.
 */
export async function startNginx(opts: NginxOptions): Promise<RunningNginx | { skip: string }> {
  const bin = nginxBinary();
  if (!(await isExecutable(bin))) {
    return { skip: `nginx not found at ${bin}; install Debian's nginx package (npm test's set-up, scripts/test-setup.sh, does as root) or set NGINX_BIN` };
  }
  const port = await freePort();
  const { stop } = await startServerProcess({
    name: 'nginx',
    bin,
    tempDirPrefix: 'nginx-',
    args: (dir) => {
      const conf = path.join(dir, 'nginx.conf');
      for (const [name, text] of Object.entries({ ...opts.files, 'server.conf': opts.server(port) })) {
        fs.writeFileSync(path.join(dir, name), text);
      }
      fs.writeFileSync(conf, nginxMainConfig(['server.conf']));
      const check = spawnSync(bin, ['-t', '-q', '-e', 'stderr', '-p', `${dir}/`, '-c', conf], { encoding: 'utf8' });
      if (check.status !== 0) throw new Error(`nginx -t refused the config: ${check.stderr.trim() || check.stdout.trim()}`);
      return ['-e', 'stderr', '-p', `${dir}/`, '-c', conf];
    },
    ready: () => waitForPort(port, 20_000),
  });
  return { port, url: `http://127.0.0.1:${port}`, stop };
}

/**
 * nginx.conf for a run in a private prefix folder (paths relative to it; not a daemon, so its supervisor owns it):
 * the http block includes `includes`. Workers run as root when the caller does: the folder is private. Debian's
 * mime.types when it is there, else the types the site serves.
 */
export function nginxMainConfig(includes: string[], workerConnections = 256): string {
  const mime = fs.existsSync('/etc/nginx/mime.types')
    ? 'include /etc/nginx/mime.types;'
    : `types {
    text/html html; text/css css; application/javascript js mjs; application/json json; image/svg+xml svg;
    image/webp webp; image/png png; image/jpeg jpg jpeg; image/x-icon ico; font/woff2 woff2; text/plain txt;
    application/xml xml;
  }`;
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
master_process on;
worker_processes 1;
pid nginx.pid;
error_log stderr warn;
events { worker_connections ${workerConnections}; }
http {
  ${mime}
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path client_body;
  proxy_temp_path proxy;
  fastcgi_temp_path fastcgi;
  uwsgi_temp_path uwsgi;
  scgi_temp_path scgi;
${includes.map((f) => `  include ${f};`).join('\n')}
}
`;
}
