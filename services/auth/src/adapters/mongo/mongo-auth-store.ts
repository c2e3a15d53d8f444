import mongoose, { Schema } from 'mongoose';
import type { AuthStore, OtpRecord, SessionRecord } from '../../ports.ts';

const otpSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    codeHash: { type: String, default: null },
    expiresAt: { type: Number, required: true, index: true },
    attempts: { type: Number, required: true, default: 0 },
    consumedAt: { type: Number, default: null },
    createdAt: { type: Number, required: true },
  },
  { versionKey: false, collection: 'auth_otp_requests' },
);
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true }, // sha256 of the token
    email: { type: String, required: true },
    expiresAt: { type: Number, required: true, index: true },
    revokedAt: { type: Number, default: null },
    createdAt: { type: Number, required: true },
  },
  { versionKey: false, collection: 'auth_sessions' },
);
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
interface SessionDoc extends Omit<SessionRecord, 'tokenHash'> {
  _id: string;
}

const toOtp = (d: OtpDoc): OtpRecord => ({
  id: d._id,
  email: d.email,
  codeHash: d.codeHash ?? null,
  expiresAt: d.expiresAt,
  attempts: d.attempts,
  consumedAt: d.consumedAt ?? null,
  createdAt: d.createdAt,
});
const toSession = (d: SessionDoc): SessionRecord => ({
  tokenHash: d._id,
  email: d.email,
  expiresAt: d.expiresAt,
  revokedAt: d.revokedAt ?? null,
  createdAt: d.createdAt,
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

/** Auth storage in MongoDB (MONGO_URL) through mongoose; every check-and-change is one conditional update. */
export async function createMongoAuthStore(url: string): Promise<AuthStore> {
  const serial = keyedQueue();
  const conn = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5_000 }).asPromise();
  const Otp = conn.model('AuthOtpRequest', otpSchema);
  const Session = conn.model('AuthSession', sessionSchema);
  const Rate = conn.model('AuthRateWindow', rateSchema);
  await Promise.all([Otp.init(), Session.init(), Rate.init()]);

  return {
    async createOtp(r) {
      const { id, ...rest } = r;
      await Otp.create({ _id: id, ...rest });
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
    async purgeExpired(now) {
      const [a, b, c] = await Promise.all([
        Otp.deleteMany({ expiresAt: { $lte: now } }),
        Session.deleteMany({ $or: [{ expiresAt: { $lte: now } }, { revokedAt: { $ne: null } }] }),
        Rate.deleteMany({ resetAt: { $lte: now } }),
      ]);
      return a.deletedCount + b.deletedCount + c.deletedCount;
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
