/**
 * npm start: builds the web app if needed, seeds a demo catalogue on the first run, starts every
 * service on its embedded adapters and the gateway, and stops them all on Ctrl-C or SIGTERM.
 */
import path from 'node:path';
import { DEFAULT_ADMIN_EMAIL, ensureWebBuilt, repoRoot, startStack } from './lib/stack.ts';

const port = Number(process.env.PORT ?? 8080);
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data'));
const demoProducts = Number(process.env.DEMO_PRODUCTS ?? 20_000);

const started = Date.now();
try {
  ensureWebBuilt();
  const stack = await startStack({ dataDir, port, seedProducts: demoProducts, env: { PORT: String(port) } });
  const admin = (process.env.ADMIN_EMAILS ?? DEFAULT_ADMIN_EMAIL).split(',')[0]!.trim();
  const mailDir = path.join(dataDir, 'mail');
  const mailNote = process.env.SMTP_URL ? `sent through ${process.env.SMTP_URL.replace(/\/\/[^@]*@/, '//')}` : `${mailDir}/ (one .eml file per message)`;
  console.log(
    [
      '',
      `  Forgeline Parts is ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      '',
      `  Storefront   http://localhost:${port}/`,
      `  Admin panel  http://localhost:${port}/admin   sign in as ${admin}`,
      `  Mail         ${mailNote}`,
      `               (the sign-in code arrives there; open the newest .eml file)`,
      `  Data         ${dataDir}`,
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('\nStopping every service...');
      stack.stop().then(() => process.exit(0));
    });
  }
} catch (err) {
  console.error(`\nnpm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
