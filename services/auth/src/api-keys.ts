import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import { API_KEY_PREFIX, type ApiKey, type CreateApiKeyRequest, type CreateApiKeyResponse, type VerifyApiKeyResponse } from '@forgeline/contracts/admin-access';
import type { ApiKeyRecord, AuthStore } from './ports.ts';

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const toApiKey = (r: ApiKeyRecord): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt)!,
  lastUsedAt: iso(r.lastUsedAt),
  revokedAt: iso(r.revokedAt),
});

/** API keys for the seller's systems: 32 random bytes after `flk_`, shown once, kept as a sha256. */
export function createApiKeys(deps: { store: AuthStore; logger: Logger; now: () => number }) {
  const { store, logger, now } = deps;
  return {
    async create(input: CreateApiKeyRequest, createdBy: string): Promise<CreateApiKeyResponse> {
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const record: ApiKeyRecord = {
        id: randomUUID(),
        name: input.name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 8),
        keyHash: hashApiKey(key),
        scopes: input.scopes,
        createdBy,
        createdAt: now(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await store.createApiKey(record);
      logger.info({ keyId: record.id, name: record.name, scopes: record.scopes, createdBy }, 'API key created');
      return { ...toApiKey(record), key };
    },

    async list(): Promise<ApiKey[]> {
      return (await store.listApiKeys()).map(toApiKey);
    },

    async revoke(id: string, by: string): Promise<void> {
      if (!(await store.revokeApiKey(id, now()))) {
        const exists = (await store.listApiKeys()).some((k) => k.id === id);
        if (!exists) throw new HttpError(404, `No API key has the id "${id}".`);
        return; // already revoked: idempotent
      }
      logger.info({ keyId: id, by }, 'API key revoked');
    },

    /** The gateway's question for a call made with a key. Records the use (at most one write per 10 s per key). */
    async verify(key: string): Promise<VerifyApiKeyResponse> {
      const record = key.startsWith(API_KEY_PREFIX) ? await store.findApiKeyByHash(hashApiKey(key)) : null;
      if (!record) throw new HttpError(401, 'Unknown API key');
      if (record.revokedAt !== null) throw new HttpError(401, 'This API key has been revoked');
      const t = now();
      if (record.lastUsedAt === null || t - record.lastUsedAt >= 10_000) await store.touchApiKey(record.id, t);
      return { id: record.id, name: record.name, scopes: record.scopes };
    },
  };
}
export type ApiKeys = ReturnType<typeof createApiKeys>;
