import { randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { Outbox } from '@forgeline/mailer/outbox';
import {
  ACCOUNT_LIMITS,
  type BuyerAccountLookup,
  type BuyerActor,
  type Company,
  type CompanyInvite,
  type CompanyMember,
  type CompanyResponse,
  type CompanyRole,
  type FleetImportResponse,
  type FleetUnit,
  type FleetUnitInput,
  type InviteRequest,
  type SavedList,
  type SavedListInput,
  type SavedListSummary,
} from '@forgeline/contracts/account';
import type { AccountStore, AuthStore, CompanyRecord, FleetUnitRecord, InviteRecord, MemberRecord, SavedListHead, SavedListRecord } from './ports.ts';
import { INVITE_TTL_MS, defaultCompanyName, domainOf, isPublicMailDomain } from './domain/company.ts';
import { readFleetCsv, unitKey } from './domain/fleet.ts';
import { sealMail } from './domain/mail-seal.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const toCompany = (c: CompanyRecord): Company => ({ id: c.id, name: c.name, domain: c.domain, createdAt: iso(c.createdAt) });
const toMember = (m: MemberRecord): CompanyMember => ({ email: m.email, role: m.role, joinedAt: iso(m.joinedAt) });
const toInvite = (i: InviteRecord): CompanyInvite => ({ id: i.id, email: i.email, role: i.role, invitedBy: i.invitedBy, createdAt: iso(i.createdAt), expiresAt: iso(i.expiresAt) });
const toUnit = (u: FleetUnitRecord): FleetUnit => ({ id: u.id, unitName: u.unitName, make: u.make, model: u.model, serial: u.serial, hours: u.hours, createdAt: iso(u.createdAt), updatedAt: iso(u.updatedAt) });
const toListHead = (l: SavedListHead): SavedListSummary => ({ id: l.id, name: l.name, unitId: l.unitId, lineCount: l.lineCount, createdBy: l.createdBy, updatedBy: l.updatedBy, createdAt: iso(l.createdAt), updatedAt: iso(l.updatedAt) });
const toList = (l: SavedListRecord): SavedList => ({ ...toListHead({ ...l, lineCount: l.lines.length }), lines: l.lines as SavedList['lines'] });

/** A buyer with their place: who they are and which company's things they may touch. */
export interface Membership {
  email: string;
  company: CompanyRecord;
  role: CompanyRole;
}

export interface AccountsDeps {
  accounts: AccountStore;
  /** Auth's store: invitation mails go through its outbox, sealed like every mail of auth's. */
  store: Pick<AuthStore, 'enqueueMail'>;
  outbox: Pick<Outbox, 'kick'>;
  sealKey: Buffer;
  logger: Logger;
  publicUrl?: string;
  now: () => number;
}

const notFound = (what: string) => new HttpError(404, `${what} not found`);

/** Buyers' companies, fleets and saved lists (issue 35); every call names the membership it acts for. */
export function createAccounts(deps: AccountsDeps) {
  const { accounts, logger, now } = deps;
  const siteUrl = (deps.publicUrl ?? 'http://localhost:8080').replace(/\/$/, '');

  function inviteMail(invite: InviteRecord, companyName: string): MailMessage {
    const text =
      `${invite.invitedBy} invited you to ${companyName}'s account on Forgeline Parts, as ${invite.role === 'admin' ? 'an admin' : 'a buyer'}.\n\n` +
      `Sign in with this address (${invite.email}) at ${siteUrl}/account/sign-in to see the company's machines, parts lists, quotes and orders.\n\n` +
      `The invitation stands until ${iso(invite.expiresAt).slice(0, 10)}. If you do not know ${invite.invitedBy}, ignore this message.\n`;
    return { to: invite.email, subject: `${invite.invitedBy} invited you to ${companyName} on Forgeline Parts`, text, messageId: `<invite-${invite.id}@forgeline.parts>` };
  }

  /** A new company for `email` (shared by its domain when it can be, else a company of one), with them as its admin. */
  async function createCompanyFor(email: string): Promise<Membership> {
    const t = now();
    const domain = domainOf(email);
    const shared = !isPublicMailDomain(domain) && !(await accounts.findCompanyByDomain(domain));
    for (const claim of shared ? [domain, null] : [null]) {
      const company: CompanyRecord = { id: randomUUID(), name: defaultCompanyName(email, claim !== null), domain: claim, createdAt: t };
      if (await accounts.createCompany(company, { email, companyId: company.id, role: 'admin', joinedAt: t })) {
        logger.info({ companyId: company.id, shared: claim !== null }, 'buyer company created');
        return { email, company, role: 'admin' };
      }
      // Taken meanwhile (the domain by a colleague's first sign-in, or the address by this buyer's other tab).
      const member = await accounts.getMember(email);
      if (member) return membershipOf(member);
    }
    throw new HttpError(503, 'Your account could not be set up just now; please try again');
  }

  async function membershipOf(member: MemberRecord): Promise<Membership> {
    const company = await accounts.getCompany(member.companyId);
    if (!company) throw new HttpError(503, 'Your account could not be read just now; please try again');
    return { email: member.email, company, role: member.role };
  }

  async function requireAdmin(m: Membership) {
    if (m.role !== 'admin') throw new HttpError(403, "Only your company's admins can do this");
  }

  async function lastAdminGuard(m: Membership, email: string, what: string) {
    const members = await accounts.listMembers(m.company.id);
    const admins = members.filter((x) => x.role === 'admin');
    if (admins.length === 1 && admins[0]!.email === email) {
      throw new HttpError(409, `${what}: the company needs another admin first (make a colleague admin), or delete the company`);
    }
  }

  async function unitInput(m: Membership, input: FleetUnitInput, id: string, createdAt: number): Promise<FleetUnitRecord> {
    return { id, companyId: m.company.id, unitName: input.unitName.replace(/\s+/g, ' '), make: input.make, model: input.model, serial: input.serial ?? null, hours: input.hours ?? null, createdAt, updatedAt: now() };
  }

  async function listRecord(m: Membership, input: SavedListInput, existing: SavedListRecord | null): Promise<SavedListRecord> {
    const unitId = input.unitId ?? null;
    if (unitId && !(await accounts.getUnit(m.company.id, unitId))) throw new HttpError(400, 'unitId: no machine of your fleet has this id');
    const t = now();
    return {
      id: existing?.id ?? randomUUID(),
      companyId: m.company.id,
      name: input.name,
      unitId,
      lines: input.lines,
      createdBy: existing?.createdBy ?? m.email,
      updatedBy: m.email,
      createdAt: existing?.createdAt ?? t,
      updatedAt: t,
    };
  }

  return {
    /**
     * The buyer's membership, made on first use: an invitation standing for the address is taken (the oldest), else a
     * company is made for them. Called for every account call, so a removed member lands in a company of their own.
     */
    async membership(email: string): Promise<Membership> {
      const member = await accounts.getMember(email);
      if (member) return membershipOf(member);
      for (const invite of await accounts.invitesFor(email, now())) {
        const company = await accounts.getCompany(invite.companyId);
        if (!company) continue;
        if (await accounts.addMember({ email, companyId: company.id, role: invite.role, joinedAt: now() })) {
          await accounts.deleteInvitesFor(email);
          logger.info({ companyId: company.id }, 'invited buyer joined their company');
          return { email, company, role: invite.role };
        }
        return membershipOf((await accounts.getMember(email))!);
      }
      return createCompanyFor(email);
    },

    async actor(m: Membership): Promise<BuyerActor> {
      const members = await accounts.listMembers(m.company.id);
      return { email: m.email, companyId: m.company.id, role: m.role, memberEmails: members.map((x) => x.email).slice(0, ACCOUNT_LIMITS.members) };
    },

    async company(m: Membership): Promise<CompanyResponse> {
      const [members, invites] = await Promise.all([accounts.listMembers(m.company.id), accounts.listInvites(m.company.id)]);
      return { company: toCompany(m.company), members: members.map(toMember), invites: m.role === 'admin' ? invites.map(toInvite) : [] };
    },

    async rename(m: Membership, name: string) {
      await requireAdmin(m);
      await accounts.renameCompany(m.company.id, name);
    },

    async invite(m: Membership, input: InviteRequest): Promise<CompanyInvite> {
      await requireAdmin(m);
      const existing = await accounts.getMember(input.email);
      if (existing?.companyId === m.company.id) throw new HttpError(409, `${input.email} is already a member`);
      const [members, invites] = await Promise.all([accounts.listMembers(m.company.id), accounts.listInvites(m.company.id)]);
      if (members.length >= ACCOUNT_LIMITS.members) throw new HttpError(409, `A company has at most ${ACCOUNT_LIMITS.members} members`);
      if (invites.length >= ACCOUNT_LIMITS.invites && !invites.some((i) => i.email === input.email)) {
        throw new HttpError(409, `At most ${ACCOUNT_LIMITS.invites} invitations can stand at once; withdraw some first`);
      }
      const t = now();
      const invite: InviteRecord = { id: randomUUID(), companyId: m.company.id, email: input.email, role: input.role, invitedBy: m.email, createdAt: t, expiresAt: t + INVITE_TTL_MS };
      await accounts.putInvite(invite);
      await deps.store.enqueueMail({ id: `invite-${invite.id}`, refId: invite.id, sealed: sealMail(deps.sealKey, `invite-${invite.id}`, inviteMail(invite, m.company.name)), expiresAt: invite.expiresAt, createdAt: t });
      deps.outbox.kick();
      return toInvite(invite);
    },

    async withdrawInvite(m: Membership, id: string) {
      await requireAdmin(m);
      if (!(await accounts.deleteInvite(m.company.id, id))) throw notFound('Invitation');
    },

    async setRole(m: Membership, email: string, role: CompanyRole) {
      await requireAdmin(m);
      if (role !== 'admin') await lastAdminGuard(m, email, 'You are its only admin');
      if (!(await accounts.setMemberRole(m.company.id, email, role))) throw notFound('Member');
    },

    /** An admin removes a colleague, or anyone leaves; the company's last admin cannot. */
    async removeMember(m: Membership, email: string) {
      if (email !== m.email) await requireAdmin(m);
      await lastAdminGuard(m, email, email === m.email ? 'You are its only admin' : 'That member is its only admin');
      if (!(await accounts.removeMember(m.company.id, email))) throw notFound('Member');
      logger.info({ companyId: m.company.id, self: email === m.email }, 'buyer left their company');
    },

    /** `check`: only whether it would go through (the gateway asks before it has the members' records anonymised). */
    async deleteCompany(m: Membership, check = false) {
      await requireAdmin(m);
      if (check) return;
      await accounts.deleteCompany(m.company.id);
      logger.info({ companyId: m.company.id }, 'buyer company deleted');
    },

    /** A buyer deletes their account: they leave the company, which goes too when they were its last member. */
    async deleteAccount(m: Membership, check = false) {
      const members = await accounts.listMembers(m.company.id);
      if (members.length <= 1) return void (check || (await accounts.deleteCompany(m.company.id)));
      await lastAdminGuard(m, m.email, 'You are its only admin');
      if (check) return;
      await accounts.removeMember(m.company.id, m.email);
      await accounts.deleteInvitesFor(m.email);
    },

    fleet: async (m: Membership) => (await accounts.listUnits(m.company.id)).map(toUnit),

    async addUnit(m: Membership, input: FleetUnitInput): Promise<FleetUnit> {
      if ((await accounts.listUnits(m.company.id)).length >= ACCOUNT_LIMITS.fleetUnits) throw new HttpError(409, `A fleet holds at most ${ACCOUNT_LIMITS.fleetUnits} machines`);
      const unit = await unitInput(m, input, randomUUID(), now());
      if (!(await accounts.putUnit(unit))) throw new HttpError(409, `unitName: your fleet already has a machine named "${input.unitName}"`);
      return toUnit(unit);
    },

    async updateUnit(m: Membership, id: string, input: FleetUnitInput): Promise<FleetUnit> {
      const existing = await accounts.getUnit(m.company.id, id);
      if (!existing) throw notFound('Machine');
      const unit = await unitInput(m, input, id, existing.createdAt);
      if (!(await accounts.putUnit(unit))) throw new HttpError(409, `unitName: your fleet already has a machine named "${input.unitName}"`);
      return toUnit(unit);
    },

    async deleteUnit(m: Membership, id: string) {
      if (!(await accounts.deleteUnit(m.company.id, id))) throw notFound('Machine');
      await accounts.untieLists(m.company.id, id);
    },

    /** A CSV of machines: a row whose unit name is in the fleet updates it, the others are added; bad rows are named. */
    async importFleet(m: Membership, csv: string): Promise<FleetImportResponse> {
      const read = readFleetCsv(csv);
      if ('error' in read) throw new HttpError(400, `file: ${read.error}`);
      const units = await accounts.listUnits(m.company.id);
      const byKey = new Map(units.map((u) => [unitKey(u.unitName), u]));
      const result: FleetImportResponse = { added: 0, updated: 0, errors: [] };
      const seen = new Set<string>();
      for (const row of read.rows) {
        if ('error' in row) {
          result.errors.push({ line: row.line, message: row.error });
          continue;
        }
        const key = unitKey(row.unit.unitName);
        if (seen.has(key)) {
          result.errors.push({ line: row.line, message: `unit_name: "${row.unit.unitName}" is on an earlier line too` });
          continue;
        }
        seen.add(key);
        const existing = byKey.get(key);
        if (!existing && byKey.size >= ACCOUNT_LIMITS.fleetUnits) {
          result.errors.push({ line: row.line, message: `the fleet is full (${ACCOUNT_LIMITS.fleetUnits} machines)` });
          continue;
        }
        const unit = await unitInput(m, row.unit, existing?.id ?? randomUUID(), existing?.createdAt ?? now());
        if (!(await accounts.putUnit(unit))) {
          result.errors.push({ line: row.line, message: `unit_name: "${row.unit.unitName}" was added meanwhile` });
          continue;
        }
        byKey.set(key, unit);
        if (existing) result.updated += 1;
        else result.added += 1;
      }
      return result;
    },

    lists: async (m: Membership) => (await accounts.listLists(m.company.id)).map(toListHead),

    async list(m: Membership, id: string): Promise<SavedList> {
      const found = await accounts.getList(m.company.id, id);
      if (!found) throw notFound('Parts list');
      return toList(found);
    },

    async createList(m: Membership, input: SavedListInput): Promise<SavedList> {
      if ((await accounts.listLists(m.company.id)).length >= ACCOUNT_LIMITS.lists) throw new HttpError(409, `A company keeps at most ${ACCOUNT_LIMITS.lists} parts lists; delete some first`);
      const record = await listRecord(m, input, null);
      await accounts.putList(record);
      return toList(record);
    },

    async updateList(m: Membership, id: string, input: SavedListInput): Promise<SavedList> {
      const existing = await accounts.getList(m.company.id, id);
      if (!existing) throw notFound('Parts list');
      const record = await listRecord(m, input, existing);
      await accounts.putList(record);
      return toList(record);
    },

    async deleteList(m: Membership, id: string) {
      if (!(await accounts.deleteList(m.company.id, id))) throw notFound('Parts list');
    },

    /** For staff beside a request: the account of the address that sent it, if it has one (none is made here). */
    async lookup(email: string): Promise<BuyerAccountLookup> {
      const member = await accounts.getMember(email);
      const company = member && (await accounts.getCompany(member.companyId));
      if (!member || !company) return { account: null };
      const [members, units] = await Promise.all([accounts.listMembers(company.id), accounts.listUnits(company.id)]);
      return { account: { company: toCompany(company), role: member.role, members: members.map(toMember), units: units.map(toUnit) } };
    },

    /** Everything the account holds about the buyer and their company, for the buyer to take away. */
    async exportData(m: Membership) {
      const [company, fleet, heads] = await Promise.all([this.company(m), accounts.listUnits(m.company.id), accounts.listLists(m.company.id)]);
      const lists = await Promise.all(heads.map((h) => accounts.getList(m.company.id, h.id)));
      return {
        exportedAt: iso(now()),
        you: { email: m.email, role: m.role },
        company: company.company,
        members: company.members,
        invites: company.invites,
        fleet: fleet.map(toUnit),
        lists: lists.filter((l): l is SavedListRecord => l !== null).map(toList),
      };
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
