/**
 * nginx for the local cluster: the compose edge config (infra/nginx/default.conf, security-header includes and all)
 * with only its addresses changed, written into the cluster's data folder; infra/nginx stays as compose uses it.
 * Beside the edge, one internal listener per service stands in for compose's service names (`http://catalog:4001`
 * reaches every catalog replica through Docker's DNS; here an nginx upstream does, passing to the next replica when
 * one refuses the connection).
 */
import fs from 'node:fs';
import path from 'node:path';
import { nginxMainConfig } from '@forgeline/test-support/nginx';
import { repoRoot } from './stack.ts';

const infraNginx = path.join(repoRoot, 'infra/nginx');

export interface ClusterNginxConfig {
  /** Where nginx.conf, the snippets, temp folders and the pid file go (nginx's prefix). */
  dir: string;
  edgePort: number;
  webDistDir: string;
  gateways: string[];
  /** Service name → its internal listener's port and its replicas' host:port. */
  internal: Record<string, { port: number; replicas: string[] }>;
}

/** default.conf with one change per address, each of which must be there exactly once. */
export function edgeServerConfig(opts: Pick<ClusterNginxConfig, 'edgePort' | 'webDistDir' | 'gateways'>): string {
  let conf = fs.readFileSync(path.join(infraNginx, 'default.conf'), 'utf8');
  const replace = (from: string, to: string) => {
    const count = conf.split(from).length - 1;
    if (count !== 1) throw new Error(`infra/nginx/default.conf has ${count} "${from}" (expected exactly one); the cluster's edge config cannot be made`);
    conf = conf.replace(from, to);
  };
  replace('server gateway:8080;', opts.gateways.map((g) => `server ${g};`).join('\n  '));
  replace('listen 80;', `listen 127.0.0.1:${opts.edgePort};`);
  replace('root /usr/share/nginx/html;', `root ${opts.webDistDir};`);
  return conf;
}

function internalServers(internal: ClusterNginxConfig['internal']): string {
  return Object.entries(internal)
    .map(
      ([name, { port, replicas }]) => `
# ${name}: the address other services call, every ${name} replica behind it.
upstream ${name}-replicas {
  ${replicas.map((r) => `server ${r} max_fails=1 fail_timeout=5s;`).join('\n  ')}
  keepalive 16;
}
server {
  listen 127.0.0.1:${port};
  server_tokens off;
  client_max_body_size 0;        # the services keep their own limits
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Host $host;
  proxy_request_buffering off;
  proxy_buffering off;
  proxy_connect_timeout 2s;
  proxy_read_timeout 330s;
  # A replica that refuses the connection or is gone mid-answer: the next one takes the request (nginx never
  # repeats a POST it has already sent).
  proxy_next_upstream error timeout http_502 http_503;
  location / {
    proxy_pass http://${name}-replicas;
  }
}
`,
    )
    .join('');
}

/** Writes nginx.conf, edge.conf (the compose config), internal.conf and the snippets; returns nginx.conf's path. */
export function writeClusterNginx(opts: ClusterNginxConfig): string {
  fs.mkdirSync(opts.dir, { recursive: true });
  for (const file of fs.readdirSync(infraNginx).filter((f) => f !== 'default.conf' && f.endsWith('.conf'))) {
    fs.copyFileSync(path.join(infraNginx, file), path.join(opts.dir, file));
  }
  fs.writeFileSync(path.join(opts.dir, 'edge.conf'), edgeServerConfig(opts));
  fs.writeFileSync(path.join(opts.dir, 'internal.conf'), internalServers(opts.internal));
  const conf = path.join(opts.dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxMainConfig(['edge.conf', 'internal.conf'], 1024));
  return conf;
}
