import mongoose, { Schema, type mongo } from 'mongoose';
import type { ApiKeyRecord, AuditRecord, AuthStore, ClaimedSealedMail, OtpRecord, OutboxMailRecord, SessionRecord, SignInLockRecord } from '../../ports.ts';

const otpSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    codeHash: { type: String, default: null },
    expiresAt: { type: Number, required: true, index: true },
    attempts: { type: Number, required: true, default: 0 },
    consumedAt: { type: Number, default: null },
    createdAt: { type: Number, required: true },
    // Whom the code is for (absent in codes from before buyers could sign in: staff).
    audience: { type: String, default: 'staff' },
  },
  { versionKey: false, collection: 'auth_otp_requests' },
);
const mailSchema = new Schema(
  {
    _id: { type: String, required: true },
    refId: { type: String, required: true },
    /** The mail, sealed (domain/mail-seal.ts). */
    sealed: { type: String, required: true },
    attempts: { type: Number, required: true, default: 0 },
    nextAttemptAt: { type: Number, required: true },
    leaseUntil: { type: Number, required: true, default: 0 },
    lastError: { type: String, default: null },
    expiresAt: { type: Number, required: true, index: true },
    createdAt: { type: Number, required: true },
  },
  { versionKey: false, collection: 'auth_mail_outbox' },
);
// The claim: due mails in order, the lease and the expiry checked in the index (docs/operating.md#indexes).
mailSchema.index({ nextAttemptAt: 1, _id: 1, leaseUntil: 1, expiresAt: 1 });
interface MailDoc {
  _id: string;
  refId: string;
  sealed: string;
  attempts: number;
}
const lockSchema = new Schema(
  {
    _id: { type: String, required: true }, // the address
    failures: { type: Number, required: true },
    windowStart: { type: Number, required: true },
    locks: { type: Number, required: true },
    lockedAt: { type: Number, default: null },
    lockedUntil: { type: Number, default: null },
    lockedBy: { type: String, default: null },
    forgetAt: { type: Number, required: true, index: true },
    /** Bumped by every change: a change is written only over the version it was computed from. */
    version: { type: Number, required: true },
  },
  { versionKey: false, collection: 'auth_sign_in_locks' },
);
interface LockDoc extends Omit<SignInLockRecord, 'email'> {
  _id: string;
  version: number;
}
const toLock = ({ _id, version: _v, ...d }: LockDoc): SignInLockRecord => ({
  email: _id,
  failures: d.failures,
  windowStart: d.windowStart,
  locks: d.locks,
  lockedAt: d.lockedAt ?? null,
  lockedUntil: d.lockedUntil ?? null,
  lockedBy: d.lockedBy ?? null,
  forgetAt: d.forgetAt,
});
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true }, // sha256 of the token
    email: { type: String, required: true },
    expiresAt: { type: Number, required: true, index: true },
    revokedAt: { type: Number, default: null, index: true },
    createdAt: { type: Number, required: true },
    lastSeenAt: { type: Number, default: null },
    audience: { type: String, default: 'staff' },
  },
  { versionKey: false, collection: 'auth_sessions' },
);
const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    keyHash: { type: String, required: true, unique: true },
    scopes: { type: [String], required: true },
    createdBy: { type: String, required: true },
    createdAt: { type: Number, required: true },
    lastUsedAt: { type: Number, default: null },
    revokedAt: { type: Number, default: null },
  },
  { versionKey: false, collection: 'auth_api_keys' },
);
apiKeySchema.index({ createdAt: -1, _id: -1 });
const auditSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Number, required: true },
    actor: { type: String, required: true },
    actorKind: { type: String, required: true },
    action: { type: String, required: true },
    target: { type: String, default: null },
    ip: { type: String, default: null },
    status: { type: Number, default: null },
    requestId: { type: String, default: null },
  },
  { versionKey: false, collection: 'auth_audit_log' },
);
auditSchema.index({ at: -1, _id: -1 });
const rateSchema = new Schema(
  {
    _id: { type: String, required: true }, // `${key}|${windowStart}`
    key: { type: String, required: true, index: true },
    resetAt: { type: Number, required: true, index: true },
    count: { type: Number, required: true },
  },
  { versionKey: false, collection: 'auth_rate_windows' },
);

interface OtpDoc extends Omit<OtpRecord, 'id'> {
  _id: string;
}
interface SessionDoc extends Omit<SessionRecord, 'tokenHash' | 'lastSeenAt'> {
  _id: string;
  lastSeenAt?: number | null;
}
interface ApiKeyDoc extends Omit<ApiKeyRecord, 'id'> {
  _id: string;
}
interface AuditDoc extends Omit<AuditRecord, 'id'> {
  _id: string;
}
const toApiKey = ({ _id, ...d }: ApiKeyDoc): ApiKeyRecord => ({ id: _id, ...d, lastUsedAt: d.lastUsedAt ?? null, revokedAt: d.revokedAt ?? null });
const toAudit = ({ _id, ...d }: AuditDoc): AuditRecord => ({
  id: _id,
  ...d,
  target: d.target ?? null,
  ip: d.ip ?? null,
  status: d.status ?? null,
  requestId: d.requestId ?? null,
});
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toOtp = (d: OtpDoc): OtpRecord => ({
  id: d._id,
  email: d.email,
  codeHash: d.codeHash ?? null,
  expiresAt: d.expiresAt,
  attempts: d.attempts,
  consumedAt: d.consumedAt ?? null,
  createdAt: d.createdAt,
  audience: d.audience ?? 'staff',
});
const toSession = (d: SessionDoc): SessionRecord => ({
  tokenHash: d._id,
  email: d.email,
  expiresAt: d.expiresAt,
  revokedAt: d.revokedAt ?? null,
  createdAt: d.createdAt,
  lastSeenAt: d.lastSeenAt ?? d.createdAt,
  audience: d.audience ?? 'staff',
});

/**
 * Runs check-and-change operations on one key one after another within this process. MongoDB makes each
 * single-document update atomic, which is what keeps several auth replicas honest; FerretDB 1.x (the test
 * server) does not, so without this queue concurrent attempts on one code could all be counted as the first.
 */
function keyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

const mailDoc = (mail: OutboxMailRecord) => ({
  _id: mail.id,
  refId: mail.refId,
  sealed: mail.sealed,
  attempts: 0,
  nextAttemptAt: mail.createdAt,
  leaseUntil: 0,
  expiresAt: mail.expiresAt,
  createdAt: mail.createdAt,
});
const lockFields = (r: SignInLockRecord) => ({
  failures: r.failures,
  windowStart: r.windowStart,
  locks: r.locks,
  lockedAt: r.lockedAt,
  lockedUntil: r.lockedUntil,
  lockedBy: r.lockedBy,
  forgetAt: r.forgetAt,
});

/**
 * Auth storage in MongoDB (MONGO_URL) through mongoose; every check-and-change is one conditional update. `onCommand`
 * hears every command sent, from the first (the tests record the query shapes and the indexes created).
 */
export async function createMongoAuthStore(url: string, opts: { onCommand?: (event: mongo.CommandStartedEvent) => void } = {}): Promise<AuthStore> {
  const serial = keyedQueue();
  const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 5_000, monitorCommands: Boolean(opts.onCommand) });
  if (opts.onCommand) conn.on('commandStarted', opts.onCommand);
  await conn.asPromise();
  const Otp = conn.model('AuthOtpRequest', otpSchema);
  const Session = conn.model('AuthSession', sessionSchema);
  const Rate = conn.model('AuthRateWindow', rateSchema);
  const ApiKey = conn.model('AuthApiKey', apiKeySchema);
  const Audit = conn.model('AuthAuditEntry', auditSchema);
  const Mail = conn.model('AuthOutboxMail', mailSchema);
  const Lock = conn.model('AuthSignInLock', lockSchema);
  await Promise.all([Otp.init(), Session.init(), Rate.init(), ApiKey.init(), Audit.init(), Mail.init(), Lock.init()]);
  // Mails stored before the outbox was sealed held their code in clear: they go (a new request sends a new code).
  await Mail.deleteMany({ sealed: { $exists: false } });

  return {
    async createOtp(r, mail) {
      const { id, ...rest } = r;
      // The code request first: a mail without its request would carry a code that never verifies.
      await Otp.create({ _id: id, ...rest });
      if (mail) await Mail.create(mailDoc(mail));
    },
    async enqueueMail(mail) {
      try {
        await Mail.create(mailDoc(mail));
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async claimDueMails(now, limit, leaseMs) {
      const t = now.getTime();
      await Mail.deleteMany({ expiresAt: { $lte: t } }); // past their expiry: never sent, and not kept
      const candidates = await Mail.find({ nextAttemptAt: { $lte: t }, leaseUntil: { $lte: t }, expiresAt: { $gt: t } })
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(limit * 4) // more than asked: simultaneous claimers skip each other's and take the next ones
        .lean<MailDoc[]>();
      const claimed: ClaimedSealedMail[] = [];
      for (const d of candidates) {
        if (claimed.length >= limit) break;
        // A conditional update on the attempt count: of two claimers, one changes the document.
        const won = await serial(`mail:${d._id}`, async () => {
          const res = await Mail.updateOne(
            { _id: d._id, attempts: d.attempts, leaseUntil: { $lte: t } },
            { $set: { leaseUntil: t + leaseMs }, $inc: { attempts: 1 } },
          );
          return res.modifiedCount === 1;
        });
        if (won) claimed.push({ id: d._id, refId: d.refId, sealed: d.sealed, attempts: d.attempts + 1 });
      }
      return claimed;
    },
    async deleteMail(id) {
      await Mail.deleteOne({ _id: id });
    },
    async markFailed(id, nextAttemptAt, error) {
      await Mail.updateOne({ _id: id }, { $set: { nextAttemptAt: nextAttemptAt.getTime(), leaseUntil: 0, lastError: error.slice(0, 500) } });
    },
    async pendingMails() {
      return Mail.countDocuments();
    },
    async mailBacklog() {
      // The outbox holds only mails not yet sent: a handful, unless the mail server is out.
      const waiting = await Mail.find({}, { _id: 0, attempts: 1, createdAt: 1 }).lean<{ attempts: number; createdAt: Date | number }[]>();
      let oldest: number | null = null;
      for (const m of waiting) {
        const at = new Date(m.createdAt).getTime();
        if (oldest === null || at < oldest) oldest = at;
      }
      return { pending: waiting.length, failing: waiting.filter((m) => m.attempts > 0).length, oldestAt: oldest === null ? null : new Date(oldest) };
    },
    async getOtp(id) {
      const d = await Otp.findById(id).lean<OtpDoc>();
      return d ? toOtp(d) : null;
    },
    countOtpAttempt(id, maxAttempts) {
      return serial(`otp:${id}`, async () => {
        const d = await Otp.findOneAndUpdate(
          { _id: id, consumedAt: null, attempts: { $lt: maxAttempts } },
          { $inc: { attempts: 1 } },
          { returnDocument: 'after' },
        ).lean<OtpDoc>();
        return d ? toOtp(d) : null;
      });
    },
    consumeOtp(id, at) {
      return serial(`otp:${id}`, async () => {
        const res = await Otp.updateOne({ _id: id, consumedAt: null }, { $set: { consumedAt: at } });
        return res.modifiedCount === 1;
      });
    },
    async createSession(r) {
      const { tokenHash, ...rest } = r;
      await Session.create({ _id: tokenHash, ...rest });
    },
    async findSession(tokenHash) {
      const d = await Session.findById(tokenHash).lean<SessionDoc>();
      return d ? toSession(d) : null;
    },
    revokeSession(tokenHash, at) {
      return serial(`session:${tokenHash}`, async () => {
        const res = await Session.updateOne({ _id: tokenHash, revokedAt: null }, { $set: { revokedAt: at } });
        return res.modifiedCount === 1;
      });
    },
    async touchSession(tokenHash, at) {
      await Session.updateOne({ _id: tokenHash, $or: [{ lastSeenAt: null }, { lastSeenAt: { $lt: at } }] }, { $set: { lastSeenAt: at } });
    },
    async createApiKey({ id, ...rest }) {
      await ApiKey.create({ _id: id, ...rest });
    },
    async listApiKeys() {
      return (await ApiKey.find().sort({ createdAt: -1, _id: -1 }).lean<ApiKeyDoc[]>()).map(toApiKey);
    },
    async findApiKeyByHash(keyHash) {
      const d = await ApiKey.findOne({ keyHash }).lean<ApiKeyDoc>();
      return d ? toApiKey(d) : null;
    },
    async revokeApiKey(id, at) {
      const res = await ApiKey.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: at } });
      return res.modifiedCount === 1;
    },
    async touchApiKey(id, at) {
      await ApiKey.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
    },
    async appendAudit(records) {
      // Ordered false: an entry sent twice (a retried batch) is skipped, the rest go in.
      await Audit.insertMany(
        records.map(({ id, ...rest }) => ({ _id: id, ...rest })),
        { ordered: false },
      ).catch((err: unknown) => {
        const writeErrors = (err as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors;
        if (!writeErrors?.every((e) => (e.code ?? e.err?.code) === 11000)) throw err;
      });
    },
    async listAudit(f) {
      const and: Record<string, unknown>[] = [];
      if (f.actor) and.push({ actor: { $regex: regexEscape(f.actor), $options: 'i' } });
      if (f.action) and.push({ action: { $regex: `^${regexEscape(f.action)}`, $options: 'i' } });
      if (f.from !== undefined) and.push({ at: { $gte: f.from } });
      if (f.to !== undefined) and.push({ at: { $lte: f.to } });
      if (f.before) and.push({ $or: [{ at: { $lt: f.before.at } }, { at: f.before.at, _id: { $lt: f.before.id } }] });
      const docs = await Audit.find(and.length ? { $and: and } : {})
        .sort({ at: -1, _id: -1 })
        .limit(f.limit)
        .lean<AuditDoc[]>();
      return docs.map(toAudit);
    },
    async purgeAudit(before) {
      return (await Audit.deleteMany({ at: { $lt: before } })).deletedCount;
    },
    hit(key, windowMs, now) {
      const start = Math.floor(now / windowMs) * windowMs;
      const id = `${key}|${start}`;
      const once = () =>
        Rate.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { key, resetAt: start + windowMs } },
          { upsert: true, returnDocument: 'after' },
        ).lean<{ count: number; resetAt: number }>();
      return serial(`rate:${id}`, async () => {
        // Two replicas creating the same window at once: one insert wins, the other retries as an update.
        const d = await once().catch((err: unknown) => (isDuplicateKey(err) ? once() : Promise.reject(err)));
        return { count: d!.count, resetAt: d!.resetAt };
      });
    },
    unhit(key, windowMs, now) {
      const start = Math.floor(now / windowMs) * windowMs;
      const id = `${key}|${start}`;
      return serial(`rate:${id}`, async () => {
        await Rate.updateOne({ _id: id, count: { $gt: 0 } }, { $inc: { count: -1 } });
      });
    },
    async resetHits(key) {
      await Rate.deleteMany({ key });
    },
    changeSignInLock(email, change) {
      // Optimistic: the change is written only over the version it was computed from, else computed again. MongoDB
      // makes each conditional write atomic across replicas; the queue keeps this process's own changes in line.
      return serial(`lock:${email}`, async () => {
        for (let round = 0; round < 50; round++) {
          const doc = await Lock.findById(email).lean<LockDoc>();
          const { next, result } = change(doc ? toLock(doc) : null);
          if (next === undefined) return result;
          if (!doc) {
            if (next === null) return result;
            try {
              await Lock.create({ ...lockFields(next), _id: email, version: 1 });
              return result;
            } catch (err) {
              if (isDuplicateKey(err)) continue; // another replica created it first
              throw err;
            }
          }
          const done =
            next === null
              ? (await Lock.deleteOne({ _id: email, version: doc.version })).deletedCount === 1
              : (await Lock.updateOne({ _id: email, version: doc.version }, { $set: { ...lockFields(next), version: doc.version + 1 } })).modifiedCount === 1;
          if (done) return result;
        }
        throw new Error(`sign-in lock of ${email}: too many concurrent changes`);
      });
    },
    async getSignInLock(email) {
      const d = await Lock.findById(email).lean<LockDoc>();
      return d ? toLock(d) : null;
    },
    async listSignInLocks() {
      return (await Lock.find().sort({ _id: 1 }).lean<LockDoc[]>()).map(toLock);
    },
    async purgeExpired(now) {
      const [a, b, c, d, e] = await Promise.all([
        Otp.deleteMany({ expiresAt: { $lte: now } }),
        // Revoked: a time, null while not; a range (every time) so the revokedAt index bounds it, where $ne: null does not.
        Session.deleteMany({ $or: [{ expiresAt: { $lte: now } }, { revokedAt: { $gte: 0 } }] }),
        Rate.deleteMany({ resetAt: { $lte: now } }),
        Mail.deleteMany({ expiresAt: { $lte: now } }),
        Lock.deleteMany({ forgetAt: { $lte: now } }),
      ]);
      return a.deletedCount + b.deletedCount + c.deletedCount + d.deletedCount + e.deletedCount;
    },
    async ping() {
      await conn.db!.admin().ping();
      return true;
    },
    async close() {
      await conn.close();
    },
  };
}

/**
 * The queries this adapter sends that no index serves by the ESR rule, each with why that is deliberate. The mongo
 * suite fails on any other query no index serves (test/mongo-auth-store.test.ts, docs/operating.md#indexes); a shape
 * is written as that check prints it.
 */
export const UNINDEXED_QUERIES: { shape: string; reason: string }[] = [
  {
    shape: 'auth_mail_outbox delete {"sealed":{"$exists":false}}',
    reason: 'once per start: drops code mails stored before sealing; the outbox holds only mails not yet sent (deleted once sent or expired)',
  },
  { shape: 'auth_mail_outbox find {} projection {"_id":0,"attempts":1,"createdAt":1}', reason: "mailBacklog: the metrics' outbox backlog at each scrape; the outbox holds only mails not yet sent (a handful, unless the mail server is out)" },
  { shape: 'auth_mail_outbox aggregate {} then $group', reason: "pendingMails: once per start, for the 'outbox resuming' log line; the outbox holds only mails not yet sent" },
];
