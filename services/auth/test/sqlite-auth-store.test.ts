import path from 'node:path';
import { tempDir } from '@forgeline/test-support/net';
import { describeAuthStore } from './auth-store.contract.ts';
import { createSqliteAuthStore } from '../src/adapters/sqlite/sqlite-auth-store.ts';

describeAuthStore('sqlite', async () => {
  const tmp = tempDir('forgeline-auth-store-');
  const file = path.join(tmp.dir, 'auth.sqlite');
  return { store: createSqliteAuthStore(file), cleanup: async () => tmp.remove(), replica: async () => createSqliteAuthStore(file) };
});
