/**
 * Zod compiles its object parsers with `new Function` when it may, and probes for that first: the probe is caught,
 * but the browser still reports it as a Content-Security-Policy violation (script-src allows no eval,
 * packages/service-kit/src/security-headers.ts). So the app's schemas (the admin panel's contracts) parse without.
 * Loaded before the admin panel's chunk (app/router.tsx), so it is set before any schema is built; a screen that
 * starts using zod needs the same (the browser tests fail on the violation otherwise).
 */
import { config } from 'zod';

config({ jitless: true });
