import { Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import app from '../../worker/index.ts';
import { ROUTE_RULES } from '../../worker/middleware/roles.ts';

/**
 * The routes that need a session, read from the app's own route table, so a route added tomorrow
 * is in the security tests without anyone listing it: every route under /api/admin/ but signing in
 * and out, every route that names requireAdmin (the cabin, review, settings and upload writes), and
 * every route the role table classifies. A route that should need a session and has no guard is
 * still in the list, and the tests that walk it fail.
 */
const PUBLIC_ADMIN = new Set(['POST /api/admin/login', 'POST /api/admin/logout']);

export type SessionRoute = {
  /** `METHOD /pattern`, as ROUTE_RULES names it. */
  key: string;
  method: string;
  /** A path the route answers: each `:param` filled with a sample. */
  path: string;
};

/** Each `:param` as `1`: the session is checked before a parameter is read. */
const fill = (pattern: string) => pattern.replace(/:\w+(\{[^}]*\})?/g, '1');

export async function sessionRoutes(): Promise<SessionRoute[]> {
  const guarded = new Set<string>();
  const keys = new Set<string>();
  for (const r of inspectRoutes(app)) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    keys.add(key);
    if (r.name === 'requireAdmin' || key in ROUTE_RULES || (r.path.startsWith('/api/admin/') && !PUBLIC_ADMIN.has(key)))
      guarded.add(key);
  }
  const routes = [...keys]
    .filter((k) => guarded.has(k))
    .map((key) => {
      const [method, pattern] = key.split(' ') as [string, string];
      return { key, method, pattern, path: fill(pattern) };
    });
  // A sample that misses its route's pattern would test the /api/admin catch-all instead of the route.
  for (const { key, method, pattern, path } of routes) {
    const probe = new Hono().on(method, pattern, (c) => c.text('hit'));
    if ((await probe.request(path, { method })).status !== 200)
      throw new Error(`${path} does not reach ${key}: add a sample for its parameters`);
  }
  return routes.map(({ key, method, path }) => ({ key, method, path }));
}
