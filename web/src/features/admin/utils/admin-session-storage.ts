import { AdminSessionSchema, type AdminSession } from '@forgeline/contracts/auth';

/** Where the browser keeps the admin session between visits. */
export const ADMIN_SESSION_KEY = 'forgeline.adminSession';

/** The stored session, only while its expiry is in the future; an expired or unreadable one is removed. */
export function loadAdminSession(now = Date.now()): AdminSession | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(ADMIN_SESSION_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const session = AdminSessionSchema.parse(JSON.parse(raw));
    const expiresAt = Date.parse(session.expiresAt);
    if (Number.isFinite(expiresAt) && expiresAt > now) return session;
  } catch {
    /* unreadable: removed below */
  }
  clearAdminSession();
  return null;
}

export function saveAdminSession(session: AdminSession): void {
  try {
    localStorage.setItem(ADMIN_SESSION_KEY, JSON.stringify(session));
  } catch {
    /* storage full or blocked: the session lasts until the tab closes */
  }
}

export function clearAdminSession(): void {
  try {
    localStorage.removeItem(ADMIN_SESSION_KEY);
  } catch {
    /* nothing to clear */
  }
}
