const KEY_PATTERN = /^[A-Za-z0-9_%.-]+(\/[A-Za-z0-9_%.-]+)*$/;

/** Every adapter checks keys with this: no `..`, no leading slash, no odd characters. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((s) => s === '.' || s === '..') || key.length > 512) {
    throw new Error(`Unsafe object key "${key}"`);
  }
}
export function assertSafePrefix(prefix: string): void {
  if (prefix === '') return;
  assertSafeKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}
