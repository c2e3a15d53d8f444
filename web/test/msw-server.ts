import { setupServer } from 'msw/node';

/**
 * The one stand-in for the network in the web component tests: each test file adds the handlers it needs
 * (server.use), answering with data built in fixtures.ts, which the contracts' zod schemas parse. A request no
 * handler answers fails the test (onUnhandledRequest: 'error', setup.ts).
 */
export const server = setupServer();
