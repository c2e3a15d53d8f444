import type { FleetResponse, FleetUnit } from '@forgeline/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ApiError, apiFetch } from './api-client.ts';
import { serializeMachine, type Fleet, type MachineChoice } from './machine.ts';

/**
 * A signed-in buyer's fleet (issue 35), for the pages outside the account: the listings' "My machines" and the product
 * page's "fits your units". Only a browser that signed in asks (a flag in localStorage, set at sign-in and cleared at
 * sign-out or when the session is found gone), so an anonymous visit makes no account call at all.
 */

const FLAG_KEY = 'forgeline.buyer';
export const MY_FLEET_QUERY_KEY = ['account', 'fleet'] as const;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The account page says when a buyer signs in or out. */
export function markBuyerSignedIn(on: boolean): void {
  try {
    if (on) storage()?.setItem(FLAG_KEY, '1');
    else storage()?.removeItem(FLAG_KEY);
  } catch {
    // storage refused: the fleet is then only on the account page
  }
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const signedInSnapshot = () => storage()?.getItem(FLAG_KEY) === '1';

/** Whether this browser has a buyer signed in (false on the server and in the hydrating render). */
export const useBuyerSignedIn = () => useSyncExternalStore(subscribe, signedInSnapshot, () => false);

/** The company's machines, or undefined (not signed in, loading, or the session gone). */
export function useMyFleet(): FleetUnit[] | undefined {
  const signedIn = useBuyerSignedIn();
  const q = useQuery({
    queryKey: MY_FLEET_QUERY_KEY,
    queryFn: async () => {
      try {
        return (await apiFetch<FleetResponse>('/api/account/fleet')).units;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) markBuyerSignedIn(false);
        throw err;
      }
    },
    enabled: signedIn,
    staleTime: 60_000,
    retry: false,
  });
  return signedIn ? q.data : undefined;
}

/** The fleet as a listing filter: every unit (the most a filter takes), named. */
export function fleetChoice(units: FleetUnit[]): Fleet | null {
  const choice = { fleet: units.map((u) => ({ make: u.make, model: u.model, unit: u.unitName, ...(u.serial ? { serial: u.serial } : {}) })) };
  const clean = serializeMachine(choice);
  return clean ? (JSON.parse(clean) as Fleet) : null;
}

/** One unit as a listing filter. */
export const unitChoice = (u: FleetUnit): MachineChoice => ({ make: u.make, model: u.model, unit: u.unitName, ...(u.serial ? { serial: u.serial } : {}) });

/** The signed-in buyer's address (to fill a quote form in), or undefined. */
export function useBuyerEmail(): string | undefined {
  const signedIn = useBuyerSignedIn();
  const q = useQuery({
    queryKey: ['account', 'session'],
    queryFn: () => apiFetch<{ email: string }>('/api/account/session'),
    enabled: signedIn,
    staleTime: 60_000,
    retry: false,
  });
  return signedIn ? q.data?.email : undefined;
}
