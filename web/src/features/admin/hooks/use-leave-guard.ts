import { useEffect } from 'react';

/**
 * Unsaved work in the admin panel (the parts-diagram editor): while a screen has some, leaving it asks first. The
 * panel's own ways out (another tab, Logout) call confirmLeave(); closing or reloading the page gets the browser's
 * own question (beforeunload).
 */
const guards = new Set<{ message: string }>();

/** True when nothing unsaved is open, or the person agrees to drop it. */
export function confirmLeave(): boolean {
  for (const g of guards) if (!window.confirm(g.message)) return false;
  return true;
}

export function useLeaveGuard(active: boolean, message: string): void {
  useEffect(() => {
    if (!active) return;
    const guard = { message };
    guards.add(guard);
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guards.delete(guard);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, message]);
}
