/**
 * What DATA_DIR/cluster.json holds: the running cluster as its launcher (cluster.ts) writes it and the next start
 * (cluster-leftovers.ts) reads it. A module of its own so that the two share the shape without importing each other.
 */

/** Node services as compose names them, and how many replicas of each the cluster runs. */
export const DEFAULT_REPLICAS = { catalog: 2, quotes: 2, auth: 2, 'media-api': 2, 'media-worker': 3, gateway: 2 } as const;
export type ServiceGroup = keyof typeof DEFAULT_REPLICAS;
export type ServerName = 'ferretdb' | 'redis' | 'minio' | 'mailpit' | 'nginx' | 'prometheus';
type ServerInfo = { address: string; pid: number | undefined } & Record<string, unknown>;

export interface ReplicaInfo {
  name: string;
  address: string;
  pid: number | undefined;
  restarts: number;
}

export interface ClusterInfo {
  edge: string;
  /** The process that started the cluster: SIGTERM to it stops everything. */
  launcher: number;
  dataDir: string;
  startedAt: string;
  services: Record<ServiceGroup, ReplicaInfo[]>;
  /** Prometheus only where its binary is (it is optional here). */
  servers: Record<Exclude<ServerName, 'prometheus'>, ServerInfo> & { prometheus?: ServerInfo };
  /** What the other services call a service by (compose's `http://catalog:4001`): nginx listeners in front of its replicas. */
  internal: Record<string, string>;
  /** Compose variables left out because their server has no local stand-in. */
  notRunHere: Record<string, string[]>;
}
