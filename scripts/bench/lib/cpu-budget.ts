/**
 * A fixed CPU budget per process, as a pod's CPU limit gives it: each process goes into a cgroup of its own
 * with a CFS quota (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`). Benches use it to measure how a service
 * scales with its replica count when every replica has its own CPU, which a machine with fewer cores than
 * replicas cannot show otherwise. Needs root and a writable cgroup cpu controller; says why when it cannot.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Hierarchy {
  root: string;
  /** Writes the quota of `cores` CPUs into a group folder. */
  setQuota: (dir: string, cores: number) => void;
}

const PERIOD_US = 100_000;

function findHierarchy(): Hierarchy | string {
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/cpu';
  if (fs.existsSync(path.join(v2, 'cgroup.controllers'))) {
    const controllers = fs.readFileSync(path.join(v2, 'cgroup.subtree_control'), 'utf8');
    if (!controllers.split(/\s+/).includes('cpu')) return 'cgroup v2 has no cpu controller enabled for its children';
    return { root: v2, setQuota: (dir, cores) => fs.writeFileSync(path.join(dir, 'cpu.max'), `${Math.round(cores * PERIOD_US)} ${PERIOD_US}`) };
  }
  if (fs.existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
    return {
      root: v1,
      setQuota: (dir, cores) => {
        fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(cores * PERIOD_US)));
      },
    };
  }
  return 'no cgroup cpu controller is mounted';
}

export interface CpuBudget {
  /** Moves the processes back to the root group and removes the groups. */
  release: () => void;
}

/** Puts each pid (with every thread it has and every child it starts) on a budget of `cores` CPUs; a string says why it cannot. */
export function cpuBudget(pids: number[], cores: number, name: string): CpuBudget | string {
  const h = findHierarchy();
  if (typeof h === 'string') return h;
  // Groups a run that was killed left behind: empty once their process ended, so they can go (a busy one stays).
  for (const entry of fs.readdirSync(h.root)) {
    if (!entry.startsWith(`${name}-`)) continue;
    try {
      fs.rmdirSync(path.join(h.root, entry));
    } catch {
      // Still holds a live process.
    }
  }
  const groups: { pid: number; dir: string }[] = [];
  const release = () => {
    for (const g of groups) {
      try {
        fs.writeFileSync(path.join(h.root, 'cgroup.procs'), String(g.pid));
      } catch {
        // The process has ended: its group is empty already.
      }
      try {
        fs.rmdirSync(g.dir);
      } catch {
        // Still busy (a process moved in meanwhile): the next run's clean-up above removes it once empty.
      }
    }
  };
  try {
    for (const pid of pids) {
      const dir = path.join(h.root, `${name}-${pid}`);
      fs.mkdirSync(dir, { recursive: true });
      groups.push({ pid, dir });
      h.setQuota(dir, cores);
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    }
  } catch (err) {
    release();
    return `the cgroup cpu controller cannot be written here (${(err as Error).message})`;
  }
  return { release };
}
