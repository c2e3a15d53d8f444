// The lint configuration lives in tools/lint (the workspace whose `typescript` is the one typescript-eslint can use).
export { default } from './tools/lint/eslint.config.js';
