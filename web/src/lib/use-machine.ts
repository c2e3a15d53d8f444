import { useSyncExternalStore } from 'react';
import { MACHINE_STORAGE_KEY, parseMachine, serializeMachine, type MachineChoice } from './machine.ts';

/**
 * The machine chosen for this visit, kept in sessionStorage and shared by every component that reads it (the
 * selector's chip, the listings' requests). The server has no sessionStorage: it renders without a machine, and so
 * does the browser's hydrating render (useSyncExternalStore's server snapshot), which then renders again with the
 * stored machine. So the HTML always matches and no hydration error is raised.
 */

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: MachineChoice | null = null;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage switched off: the machine lasts until the page is left
  }
}

/** The choice made on this page, so it works even when storage refuses it (private modes, a full quota). */
let memory: string | null | undefined;

function readRaw(): string | null {
  if (memory !== undefined) return memory;
  try {
    return storage()?.getItem(MACHINE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function snapshot(): MachineChoice | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parseMachine(raw);
  }
  return cached;
}

const serverSnapshot = (): MachineChoice | null => null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sets (or with null, clears) the machine, or the buyer's fleet, for the visit. */
export function setMachine(m: MachineChoice | null): void {
  const raw = serializeMachine(m);
  memory = raw;
  const s = storage();
  try {
    if (raw) s?.setItem(MACHINE_STORAGE_KEY, raw);
    else s?.removeItem(MACHINE_STORAGE_KEY);
  } catch {
    // kept in memory only
  }
  for (const l of listeners) l();
}

/** The machine chosen for this visit; null on the server and in the first (hydrating) render. */
export const useMachine = (): MachineChoice | null => useSyncExternalStore(subscribe, snapshot, serverSnapshot);
