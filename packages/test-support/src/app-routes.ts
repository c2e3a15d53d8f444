import type { Express } from 'express';

/** A route an Express app declares: its method (upper case) and path as written (`:param` and all). */
export interface AppRoute {
  method: string;
  path: string;
}

/**
 * Every route an Express app declares, read from its router, so a test that checks "every route" cannot miss a new
 * one. A route with a non-string path (a RegExp) is refused: no such test could say what it matches.
 */
export function appRoutes(app: Express): AppRoute[] {
  const stack = (app as unknown as { router: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] } }).router.stack;
  const routes: AppRoute[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const path of [layer.route.path].flat()) {
      if (typeof path !== 'string') throw new Error(`a route with a non-string path (${String(path)}): its paths cannot be listed`);
      for (const method of Object.keys(layer.route.methods)) if (method !== '_all') routes.push({ method: method.toUpperCase(), path });
    }
  }
  return routes;
}
