import Database from 'better-sqlite3';
import { unitKey } from '../../domain/fleet.ts';
import type { AccountStore, CompanyRecord, CompanyRole, FleetUnitRecord, InviteRecord, MemberRecord, SavedListHead, SavedListRecord } from '../../ports.ts';

interface CompanyRow { id: string; name: string; domain: string | null; created_at: number }
interface MemberRow { email: string; company_id: string; role: CompanyRole; joined_at: number }
interface InviteRow { id: string; company_id: string; email: string; role: CompanyRole; invited_by: string; created_at: number; expires_at: number }
interface UnitRow { id: string; company_id: string; unit_name: string; make: string; model: string; serial: string | null; hours: number | null; created_at: number; updated_at: number }
interface ListRow { id: string; company_id: string; name: string; unit_id: string | null; lines: string; line_count: number; created_by: string; updated_by: string; created_at: number; updated_at: number }

const toCompany = (r: CompanyRow): CompanyRecord => ({ id: r.id, name: r.name, domain: r.domain, createdAt: r.created_at });
const toMember = (r: MemberRow): MemberRecord => ({ email: r.email, companyId: r.company_id, role: r.role, joinedAt: r.joined_at });
const toInvite = (r: InviteRow): InviteRecord => ({ id: r.id, companyId: r.company_id, email: r.email, role: r.role, invitedBy: r.invited_by, createdAt: r.created_at, expiresAt: r.expires_at });
const toUnit = (r: UnitRow): FleetUnitRecord => ({ id: r.id, companyId: r.company_id, unitName: r.unit_name, make: r.make, model: r.model, serial: r.serial, hours: r.hours, createdAt: r.created_at, updatedAt: r.updated_at });
const toHead = (r: Omit<ListRow, 'lines'>): SavedListHead => ({ id: r.id, companyId: r.company_id, name: r.name, unitId: r.unit_id, lineCount: r.line_count, createdBy: r.created_by, updatedBy: r.updated_by, createdAt: r.created_at, updatedAt: r.updated_at });

/** Buyers' accounts on SQLite: a file of their own beside auth.sqlite (`accounts.sqlite`). */
export function createSqliteAccountStore(file: string): AccountStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(`
    CREATE TABLE IF NOT EXISTS companies (id TEXT PRIMARY KEY, name TEXT NOT NULL, domain TEXT UNIQUE, created_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS members (
      email TEXT PRIMARY KEY, company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      role TEXT NOT NULL, joined_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS members_company ON members(company_id);
    CREATE TABLE IF NOT EXISTS invites (
      id TEXT PRIMARY KEY, company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE, email TEXT NOT NULL,
      role TEXT NOT NULL, invited_by TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      UNIQUE (company_id, email));
    CREATE INDEX IF NOT EXISTS invites_email ON invites(email);
    CREATE TABLE IF NOT EXISTS fleet_units (
      id TEXT PRIMARY KEY, company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE, unit_name TEXT NOT NULL,
      unit_key TEXT NOT NULL, make TEXT NOT NULL, model TEXT NOT NULL, serial TEXT, hours INTEGER,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (company_id, unit_key));
    CREATE TABLE IF NOT EXISTS saved_lists (
      id TEXT PRIMARY KEY, company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE, name TEXT NOT NULL,
      unit_id TEXT, lines TEXT NOT NULL, line_count INTEGER NOT NULL, created_by TEXT NOT NULL, updated_by TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS saved_lists_company ON saved_lists(company_id, updated_at);
  `);
  const changed = (r: Database.RunResult) => r.changes > 0;
  const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' || (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

  const s = {
    member: db.prepare<[string], MemberRow>('SELECT * FROM members WHERE email = ?'),
    members: db.prepare<[string], MemberRow>('SELECT * FROM members WHERE company_id = ? ORDER BY joined_at, email'),
    addMember: db.prepare('INSERT OR IGNORE INTO members (email, company_id, role, joined_at) VALUES (@email, @companyId, @role, @joinedAt)'),
    setRole: db.prepare('UPDATE members SET role = ? WHERE company_id = ? AND email = ?'),
    removeMember: db.prepare('DELETE FROM members WHERE company_id = ? AND email = ?'),
    company: db.prepare<[string], CompanyRow>('SELECT * FROM companies WHERE id = ?'),
    companyByDomain: db.prepare<[string], CompanyRow>('SELECT * FROM companies WHERE domain = ?'),
    addCompany: db.prepare('INSERT INTO companies (id, name, domain, created_at) VALUES (@id, @name, @domain, @createdAt)'),
    rename: db.prepare('UPDATE companies SET name = ? WHERE id = ?'),
    deleteCompany: db.prepare('DELETE FROM companies WHERE id = ?'),
    putInvite: db.prepare(`INSERT INTO invites (id, company_id, email, role, invited_by, created_at, expires_at)
      VALUES (@id, @companyId, @email, @role, @invitedBy, @createdAt, @expiresAt)
      ON CONFLICT (company_id, email) DO UPDATE SET id = excluded.id, role = excluded.role, invited_by = excluded.invited_by,
        created_at = excluded.created_at, expires_at = excluded.expires_at`),
    invites: db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE company_id = ? ORDER BY created_at DESC'),
    invitesFor: db.prepare<[string, number], InviteRow>('SELECT * FROM invites WHERE email = ? AND expires_at > ? ORDER BY created_at'),
    deleteInvite: db.prepare('DELETE FROM invites WHERE company_id = ? AND id = ?'),
    deleteInvitesFor: db.prepare('DELETE FROM invites WHERE email = ?'),
    units: db.prepare<[string], UnitRow>('SELECT * FROM fleet_units WHERE company_id = ? ORDER BY unit_key'),
    unit: db.prepare<[string, string], UnitRow>('SELECT * FROM fleet_units WHERE company_id = ? AND id = ?'),
    putUnit: db.prepare(`INSERT INTO fleet_units (id, company_id, unit_name, unit_key, make, model, serial, hours, created_at, updated_at)
      VALUES (@id, @companyId, @unitName, @unitKey, @make, @model, @serial, @hours, @createdAt, @updatedAt)
      ON CONFLICT (id) DO UPDATE SET unit_name = excluded.unit_name, unit_key = excluded.unit_key, make = excluded.make,
        model = excluded.model, serial = excluded.serial, hours = excluded.hours, updated_at = excluded.updated_at
      WHERE fleet_units.company_id = excluded.company_id`),
    deleteUnit: db.prepare('DELETE FROM fleet_units WHERE company_id = ? AND id = ?'),
    lists: db.prepare<[string], Omit<ListRow, 'lines'>>(
      'SELECT id, company_id, name, unit_id, line_count, created_by, updated_by, created_at, updated_at FROM saved_lists WHERE company_id = ? ORDER BY updated_at DESC',
    ),
    list: db.prepare<[string, string], ListRow>('SELECT * FROM saved_lists WHERE company_id = ? AND id = ?'),
    putList: db.prepare(`INSERT INTO saved_lists (id, company_id, name, unit_id, lines, line_count, created_by, updated_by, created_at, updated_at)
      VALUES (@id, @companyId, @name, @unitId, @lines, @lineCount, @createdBy, @updatedBy, @createdAt, @updatedAt)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, unit_id = excluded.unit_id, lines = excluded.lines,
        line_count = excluded.line_count, updated_by = excluded.updated_by, updated_at = excluded.updated_at
      WHERE saved_lists.company_id = excluded.company_id`),
    deleteList: db.prepare('DELETE FROM saved_lists WHERE company_id = ? AND id = ?'),
    untie: db.prepare('UPDATE saved_lists SET unit_id = NULL WHERE company_id = ? AND unit_id = ?'),
  };

  const createCompany = db.transaction((company: CompanyRecord, first: MemberRecord) => {
    s.addCompany.run(company);
    if (!changed(s.addMember.run(first))) throw Object.assign(new Error('member exists'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  });

  return {
    getMember: async (email) => {
      const r = s.member.get(email);
      return r ? toMember(r) : null;
    },
    listMembers: async (companyId) => s.members.all(companyId).map(toMember),
    addMember: async (m) => changed(s.addMember.run(m)),
    setMemberRole: async (companyId, email, role) => changed(s.setRole.run(role, companyId, email)),
    removeMember: async (companyId, email) => changed(s.removeMember.run(companyId, email)),

    getCompany: async (id) => {
      const r = s.company.get(id);
      return r ? toCompany(r) : null;
    },
    findCompanyByDomain: async (domain) => {
      const r = s.companyByDomain.get(domain);
      return r ? toCompany(r) : null;
    },
    createCompany: async (company, first) => {
      try {
        createCompany(company, first);
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    renameCompany: async (id, name) => changed(s.rename.run(name, id)),
    deleteCompany: async (id) => changed(s.deleteCompany.run(id)),

    putInvite: async (invite) => void s.putInvite.run(invite),
    listInvites: async (companyId) => s.invites.all(companyId).map(toInvite),
    invitesFor: async (email, now) => s.invitesFor.all(email, now).map(toInvite),
    deleteInvite: async (companyId, id) => changed(s.deleteInvite.run(companyId, id)),
    deleteInvitesFor: async (email) => void s.deleteInvitesFor.run(email),

    listUnits: async (companyId) => s.units.all(companyId).map(toUnit),
    getUnit: async (companyId, id) => {
      const r = s.unit.get(companyId, id);
      return r ? toUnit(r) : null;
    },
    putUnit: async (u) => {
      try {
        s.putUnit.run({ ...u, unitKey: unitKey(u.unitName) });
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    deleteUnit: async (companyId, id) => changed(s.deleteUnit.run(companyId, id)),

    listLists: async (companyId) => s.lists.all(companyId).map(toHead),
    getList: async (companyId, id) => {
      const r = s.list.get(companyId, id);
      return r ? { ...toHead(r), lines: JSON.parse(r.lines) as unknown[] } : null;
    },
    putList: async (l) => void s.putList.run({ ...l, lines: JSON.stringify(l.lines), lineCount: l.lines.length }),
    deleteList: async (companyId, id) => changed(s.deleteList.run(companyId, id)),
    untieLists: async (companyId, unitId) => void s.untie.run(companyId, unitId),

    close: async () => void db.close(),
  };
}
