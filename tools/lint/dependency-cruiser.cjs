/**
 * Import rules for the whole repo (npm run lint:deps, run by npm test). dependency-cruiser reads every TypeScript
 * file's imports, type-only ones included, and fails on:
 *
 * 1. no-circular: an import cycle anywhere (packages, services, gateway, web, scripts, e2e, test, tools).
 * 2. The web app's layers, bottom to top: shared (web/src/lib, web/src/components, web/src/config) → features
 *    (web/src/features/<name>) → app (web/src/app, main.tsx, entry-server.tsx). A layer imports only from below it.
 * 3. A feature's public face. Another feature may import a feature's components (features/<name>/components/*.tsx,
 *    what it offers to put on a page) and its endpoint hooks (features/<name>/api/*.ts, one file per call); the rest
 *    (hooks/, stores, helpers, anything deeper) is the feature's own. There are no index.ts barrels: a barrel would
 *    join a lazily loaded page to the entry chunk of every page that imports something else through it
 *    (web/src/app/router.tsx loads each page as its own chunk), and Vite's tree-shaking cannot undo that reliably.
 * 4. A service's rooms point down: ports.ts declares what the domain needs and imports no room; the domain imports
 *    no adapter, route, job, CLI, seeder or wiring; an adapter imports no route, job, CLI or wiring.
 */
const SERVICE_ROOM = '^(services/[^/]+|gateway)/src/';
const FEATURE_PUBLIC_FACE = '^web/src/features/[^/]+/(components/[^/]+\\.tsx|api/[^/]+\\.ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other (directly or through others). Move what both need into a module of its own, below both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-shared-imports-feature-or-app',
      severity: 'error',
      comment:
        'web/src/lib, components and config are shared by every feature: they import no feature and not the app. Let the feature pass in what it adds (a prop, a slot), or move the piece down.',
      from: { path: '^web/src/(lib|components|config)/' },
      to: { path: '^web/src/(features|app)/|^web/src/(main|entry-server)\\.tsx$' },
    },
    {
      name: 'web-feature-imports-app',
      severity: 'error',
      comment: 'A feature does not import the app (router, providers, routes): the app composes features, not the reverse.',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/|^web/src/(main|entry-server)\\.tsx$' },
    },
    {
      name: 'web-feature-reaches-into-another',
      severity: 'error',
      comment:
        "A feature uses another only through its public face: features/<name>/components/*.tsx and features/<name>/api/*.ts. Its hooks/, stores and helpers are its own; move what both need down to web/src/lib or components.",
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: ['^web/src/features/$1/', FEATURE_PUBLIC_FACE] },
    },
    {
      name: 'service-ports-import-a-room',
      severity: 'error',
      comment: "ports.ts is the interfaces the domain needs: it imports no room (a shared contract file beside it, such as media's job registry, is fine). Declare a shared type in ports.ts and let the domain take it from there.",
      from: { path: `${SERVICE_ROOM}ports\\.ts$` },
      to: { path: `${SERVICE_ROOM}(domain|adapters|routes|jobs|cli|seed)/|${SERVICE_ROOM}(app|main|stores)\\.ts$` },
    },
    {
      name: 'service-domain-imports-outer-room',
      severity: 'error',
      comment: 'The domain is the rules: it imports ports and other domain modules, never an adapter, route, job, CLI, the demo seeder or the wiring (app, main, stores). Move what both need into domain/.',
      from: { path: `${SERVICE_ROOM}domain/` },
      to: { path: `${SERVICE_ROOM}(adapters|routes|jobs|cli|seed)/|${SERVICE_ROOM}(app|main|stores)\\.ts$` },
    },
    {
      name: 'service-adapter-imports-outer-room',
      severity: 'error',
      comment: 'An adapter implements a port for one technology: it does not import routes, jobs, CLIs or the wiring that uses it.',
      from: { path: `${SERVICE_ROOM}adapters/` },
      to: { path: `${SERVICE_ROOM}(routes|jobs|cli)/|${SERVICE_ROOM}(app|main|stores)\\.ts$` },
    },
  ],
  options: {
    includeOnly: '^(packages|services|gateway|web|scripts|e2e|test|tools)/',
    exclude: { path: '(^|/)(node_modules|dist|data)/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still two modules that cannot be understood one without the other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
