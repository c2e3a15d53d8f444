import fs from 'node:fs';

/** One process's parent and CPU time so far (user + system, its threads included) in seconds; null once it has ended. */
export function processCpu(pid: number): { ppid: number; seconds: number } | null {
  try {
    // After the command's closing parenthesis: state, ppid, ... utime (14th field) and stime (15th); ticks of 1/100 s.
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(f[1]), seconds: (Number(f[11]) + Number(f[12])) / 100 };
  } catch {
    return null;
  }
}

/** Every process's CPU time so far, with its parent: from /proc. */
export function cpuByPid(): Map<number, { ppid: number; seconds: number }> {
  const out = new Map<number, { ppid: number; seconds: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cpu = processCpu(Number(entry)); // null: ended between the listing and the read
    if (cpu) out.set(Number(entry), cpu);
  }
  return out;
}

/**
 * CPU seconds used between two `cpuByPid` readings, by the group of the nearest ancestor named in `groups`
 * (pid → group: a process's children, such as nginx's workers, count as its own); the rest under `other`.
 */
export function cpuByGroup(before: ReturnType<typeof cpuByPid>, after: ReturnType<typeof cpuByPid>, groups: Map<number, string>, other = 'other') {
  const totals = new Map<string, number>();
  for (const [pid, now] of after) {
    let group: string | undefined;
    for (let p = pid, hops = 0; p > 1 && hops < 32 && !group; hops++) {
      group = groups.get(p);
      p = after.get(p)?.ppid ?? 0;
    }
    const used = now.seconds - (before.get(pid)?.seconds ?? 0);
    if (used > 0) totals.set(group ?? other, (totals.get(group ?? other) ?? 0) + used);
  }
  return totals;
}
