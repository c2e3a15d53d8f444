import mongoose, { Schema } from 'mongoose';
import { unitKey } from '../../domain/fleet.ts';
import type { AccountStore, CompanyRecord, FleetUnitRecord, InviteRecord, MemberRecord, SavedListHead, SavedListRecord } from '../../ports.ts';

const opts = (collection: string) => ({ versionKey: false as const, collection });
const companySchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    domain: { type: String, default: null },
    createdAt: { type: Number, required: true },
  },
  opts('buyer_companies'),
);
/** A domain's claim by its company: unique by _id (a partial unique index on companies would do, but FerretDB has none). */
const domainSchema = new Schema({ _id: { type: String, required: true }, companyId: { type: String, required: true } }, opts('buyer_company_domains'));
const memberSchema = new Schema(
  {
    _id: { type: String, required: true }, // the address: one company per buyer
    companyId: { type: String, required: true, index: true },
    role: { type: String, required: true },
    joinedAt: { type: Number, required: true },
  },
  opts('buyer_members'),
);
const inviteSchema = new Schema(
  {
    _id: { type: String, required: true },
    companyId: { type: String, required: true },
    email: { type: String, required: true, index: true },
    role: { type: String, required: true },
    invitedBy: { type: String, required: true },
    createdAt: { type: Number, required: true },
    expiresAt: { type: Number, required: true },
  },
  opts('buyer_invites'),
);
inviteSchema.index({ companyId: 1, email: 1 }, { unique: true });
const unitSchema = new Schema(
  {
    _id: { type: String, required: true },
    companyId: { type: String, required: true },
    unitName: { type: String, required: true },
    unitKey: { type: String, required: true },
    make: { type: String, required: true },
    model: { type: String, required: true },
    serial: { type: String, default: null },
    hours: { type: Number, default: null },
    createdAt: { type: Number, required: true },
    updatedAt: { type: Number, required: true },
  },
  opts('buyer_fleet_units'),
);
unitSchema.index({ companyId: 1, unitKey: 1 }, { unique: true });
const listSchema = new Schema(
  {
    _id: { type: String, required: true },
    companyId: { type: String, required: true },
    name: { type: String, required: true },
    unitId: { type: String, default: null },
    lines: { type: Schema.Types.Mixed, required: true },
    lineCount: { type: Number, required: true },
    createdBy: { type: String, required: true },
    updatedBy: { type: String, required: true },
    createdAt: { type: Number, required: true },
    updatedAt: { type: Number, required: true },
  },
  opts('buyer_saved_lists'),
);
listSchema.index({ companyId: 1, updatedAt: -1 });

type Doc<T extends { id: string }> = Omit<T, 'id'> & { _id: string };
const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;
const fromDoc = <T extends { id: string }>({ _id, ...rest }: Doc<T>) => ({ id: _id, ...rest }) as unknown as T;
const toMember = ({ _id, ...rest }: Omit<MemberRecord, 'email'> & { _id: string }): MemberRecord => ({ email: _id, ...rest });

/** Buyers' accounts in MongoDB (MONGO_URL), collections `buyer_*`. */
export async function createMongoAccountStore(url: string): Promise<AccountStore> {
  const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 5_000 });
  await conn.asPromise();
  const Company = conn.model('BuyerCompany', companySchema);
  const Member = conn.model('BuyerMember', memberSchema);
  const Domain = conn.model('BuyerCompanyDomain', domainSchema);
  const Invite = conn.model('BuyerInvite', inviteSchema);
  const Unit = conn.model('BuyerFleetUnit', unitSchema);
  const List = conn.model('BuyerSavedList', listSchema);
  await Promise.all([Company.init(), Domain.init(), Member.init(), Invite.init(), Unit.init(), List.init()]);
  type MemberDoc = Omit<MemberRecord, 'email'> & { _id: string };

  return {
    async getMember(email) {
      const d = await Member.findById(email).lean<MemberDoc>();
      return d ? toMember(d) : null;
    },
    listMembers: async (companyId) => (await Member.find({ companyId }).sort({ joinedAt: 1, _id: 1 }).lean<MemberDoc[]>()).map(toMember),
    async addMember({ email, ...rest }) {
      try {
        await Member.create({ _id: email, ...rest });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    setMemberRole: async (companyId, email, role) => (await Member.updateOne({ _id: email, companyId }, { $set: { role } })).matchedCount === 1,
    removeMember: async (companyId, email) => (await Member.deleteOne({ _id: email, companyId })).deletedCount === 1,

    async getCompany(id) {
      const d = await Company.findById(id).lean<Doc<CompanyRecord>>();
      return d ? fromDoc<CompanyRecord>(d) : null;
    },
    async findCompanyByDomain(domain) {
      const claim = await Domain.findById(domain).lean<{ companyId: string }>();
      const d = claim && (await Company.findById(claim.companyId).lean<Doc<CompanyRecord>>());
      return d ? fromDoc<CompanyRecord>(d) : null;
    },
    async createCompany({ id, ...company }, first) {
      // The domain's claim, then the first member, then the company; what a lost race wrote is taken back out.
      if (company.domain) {
        try {
          await Domain.create({ _id: company.domain, companyId: id });
        } catch (err) {
          if (isDuplicateKey(err)) return false;
          throw err;
        }
      }
      try {
        await Member.create({ _id: first.email, companyId: first.companyId, role: first.role, joinedAt: first.joinedAt });
      } catch (err) {
        if (company.domain) await Domain.deleteOne({ _id: company.domain, companyId: id });
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      await Company.create({ _id: id, ...company });
      return true;
    },
    renameCompany: async (id, name) => (await Company.updateOne({ _id: id }, { $set: { name } })).matchedCount === 1,
    async deleteCompany(id) {
      // Its members first: a buyer is never left in a company that is gone.
      await Promise.all([Member.deleteMany({ companyId: id }), Domain.deleteMany({ companyId: id }), Invite.deleteMany({ companyId: id }), Unit.deleteMany({ companyId: id }), List.deleteMany({ companyId: id })]);
      return (await Company.deleteOne({ _id: id })).deletedCount === 1;
    },

    async putInvite({ id, ...invite }) {
      await Invite.deleteOne({ companyId: invite.companyId, email: invite.email });
      await Invite.create({ _id: id, ...invite });
    },
    listInvites: async (companyId) => (await Invite.find({ companyId }).sort({ createdAt: -1 }).lean<Doc<InviteRecord>[]>()).map((d) => fromDoc<InviteRecord>(d)),
    invitesFor: async (email, now) => (await Invite.find({ email, expiresAt: { $gt: now } }).sort({ createdAt: 1 }).lean<Doc<InviteRecord>[]>()).map((d) => fromDoc<InviteRecord>(d)),
    deleteInvite: async (companyId, id) => (await Invite.deleteOne({ _id: id, companyId })).deletedCount === 1,
    deleteInvitesFor: async (email) => void (await Invite.deleteMany({ email })),

    listUnits: async (companyId) => (await Unit.find({ companyId }).sort({ unitKey: 1 }).lean<Doc<FleetUnitRecord & { unitKey: string }>[]>()).map(({ unitKey: _k, ...d }) => fromDoc<FleetUnitRecord>(d)),
    async getUnit(companyId, id) {
      const d = await Unit.findOne({ _id: id, companyId }).lean<Doc<FleetUnitRecord & { unitKey: string }>>();
      if (!d) return null;
      const { unitKey: _k, ...rest } = d;
      return fromDoc<FleetUnitRecord>(rest);
    },
    async putUnit({ id, ...u }) {
      try {
        const res = await Unit.updateOne({ _id: id, companyId: u.companyId }, { $set: { ...u, unitKey: unitKey(u.unitName) } }, { upsert: true });
        return res.matchedCount === 1 || res.upsertedCount === 1;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    deleteUnit: async (companyId, id) => (await Unit.deleteOne({ _id: id, companyId })).deletedCount === 1,

    listLists: async (companyId) =>
      (await List.find({ companyId }, { lines: 0 }).sort({ updatedAt: -1 }).lean<Doc<SavedListHead>[]>()).map((d) => fromDoc<SavedListHead>(d)),
    async getList(companyId, id) {
      const d = await List.findOne({ _id: id, companyId }).lean<Doc<SavedListRecord> & { lineCount: number }>();
      if (!d) return null;
      const { lineCount: _c, ...rest } = d;
      return fromDoc<SavedListRecord>(rest);
    },
    async putList({ id, createdAt, createdBy, ...l }) {
      await List.updateOne(
        { _id: id, companyId: l.companyId },
        { $set: { ...l, lineCount: l.lines.length }, $setOnInsert: { createdAt, createdBy } },
        { upsert: true },
      );
    },
    deleteList: async (companyId, id) => (await List.deleteOne({ _id: id, companyId })).deletedCount === 1,
    untieLists: async (companyId, unitId) => void (await List.updateMany({ companyId, unitId }, { $set: { unitId: null } })),

    close: () => conn.close(),
  };
}
