import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A TCP port that was free a moment ago on 127.0.0.1, for a process that will listen on it soon. It is drawn from
 * below the kernel's ephemeral range: a port the kernel hands out (a server listening on port 0, an outgoing
 * connection) comes from that range, and one handed out while the process was still starting took its port, so a
 * test's readiness probe reached another test's server. Within the process no port is given twice.
 */
export async function freePort(): Promise<number> {
  const [low, high] = unassignedRange();
  for (let tries = 0; tries < 100; tries++) {
    const port = low + randomInt(high - low);
    if (given.has(port)) continue;
    if (await canListen(port)) {
      given.add(port);
      return port;
    }
  }
  return kernelPort();
}

const given = new Set<number>();

/**
 * Ports below the ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range; elsewhere IANA's 49152 on), a
 * slice of them per vitest worker (VITEST_POOL_ID) so that test files running side by side never draw the same one;
 * TEST_PORT_SLICE moves a whole run to other slices.
 */
function unassignedRange(): [number, number] {
  let ephemeralStart = 49_152;
  try {
    ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralStart;
  } catch {
    // not Linux: IANA's dynamic range
  }
  const high = Math.min(ephemeralStart, 65_536);
  const low = Math.max(10_000, high - 16_000);
  const slices = 8;
  const size = Math.floor((high - low) / slices);
  // TEST_PORT_SLICE shifts the slices, for two test runs side by side on one machine.
  const slot = (Number(process.env.VITEST_POOL_ID ?? 0) + Number(process.env.TEST_PORT_SLICE ?? 0)) % slices;
  return [low + slot * size, low + (slot + 1) * size];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** The kernel's choice (port 0): the old way, if no port below its range could be had. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh temp folder and a function that removes it. */
export function tempDir(prefix = 'forgeline-test-'): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Resolve once a TCP port accepts connections, or fail after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 30_000, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
