/**
 * `node --import ./tools/lint/typescript6.mjs`: in this process, `typescript` is TypeScript 6.
 *
 * typescript-eslint and dependency-cruiser read TypeScript with TypeScript's JS API. The repo's `typescript` is 7, which
 * has none, and npm hoists part of the lint tooling (ts-api-utils, dependency-cruiser) to the root node_modules, where
 * `typescript` is 7. So the lint scripts load this first: every `require('typescript…')` and `import('typescript')`
 * is answered from tools/lint/node_modules/typescript, the @typescript/typescript6 compat package (6.0.x, the API
 * these tools support). tsc, vitest and the build never load this file; they keep TypeScript 7.
 */
import Module, { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const manifest = require.resolve('typescript/package.json');
const version = require(manifest).version;
if (!version.startsWith('6.')) throw new Error(`tools/lint/typescript6.mjs: expected TypeScript 6 at ${manifest}, found ${version}`);
const ts6Dir = path.dirname(manifest);
const ts6Main = require.resolve('typescript');

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'typescript') return ts6Main;
  if (request.startsWith('typescript/')) return resolveFilename.call(this, path.join(ts6Dir, request.slice('typescript/'.length)), ...rest);
  return resolveFilename.call(this, request, ...rest);
};

const hook = `export async function resolve(specifier, context, next) {
  return specifier === 'typescript' ? { url: ${JSON.stringify(pathToFileURL(ts6Main).href)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
