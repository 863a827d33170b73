import type { Context, Next } from 'hono';
import { matchedRoutes } from 'hono/route';
import { MSG } from '../../schema/messages.ts';
import type { AuditOutcome } from '../../schema/account.ts';
import type { AppEnv } from '../env.ts';
import { clientIp } from '../lib/client-ip.ts';
import { apiError } from '../lib/errors.ts';
import { forLog } from '../lib/for-log.ts';
import { recordAudit } from '../queries/audit.ts';
import { mayCall, ruleOf, type RouteRule } from './roles.ts';

/**
 * The route a request is answered by: the one requireAdmin was registered on, or, when it runs as
 * a sub-app's `use` (method ALL), the next matched route of the request's method that is not a
 * catch-all. Undefined when no route answers it (a 404 follows).
 */
function answeringRoute(c: Context<AppEnv>): { method: string; path: string } | undefined {
  const routes = matchedRoutes(c);
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const own = routes[c.req.routeIndex];
  if (own && own.method !== 'ALL') return own;
  return routes.slice(c.req.routeIndex + 1).find((r) => r.method === method && !r.path.endsWith('*'));
}

/** The `:name` segments of a pattern, read from the request's path. */
function paramsOf(pattern: string, path: string): Record<string, string> {
  const names = pattern.split('/');
  const values = path.split('/');
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    if (!name.startsWith(':') || values[i] === undefined) return;
    try {
      out[name.slice(1).replace(/\{.*$/, '')] = decodeURIComponent(values[i]);
    } catch {
      out[name.slice(1)] = values[i];
    }
  });
  return out;
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** Canonical JSON (keys sorted), so two equal values compare equal whatever order their keys came in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** Only the fields the write carried, of an object it replaced (a settings save names a few). */
function beforeOf(before: unknown, after: unknown, method: string): unknown {
  if (before === undefined || before === null) return undefined;
  if (method === 'DELETE' || !after || typeof after !== 'object' || Array.isArray(after) || typeof before !== 'object')
    return before;
  return Object.fromEntries(
    Object.keys(after)
      .filter((k) => k in before)
      .map((k) => [k, (before as Record<string, unknown>)[k]]),
  );
}

/**
 * Behind requireAdmin on every admin route (worker/middleware/session.ts): refuses a manager a
 * route of the owner's, and a cleaner every route not marked theirs (403 «Недостаточно прав», recorded as denied), and records every write
 * that succeeded in «Журнал» with its body as validated (`after`) and, where the route's rule reads
 * them, the values it replaced (`before`). Reads are not recorded, except a manager's refused one.
 */
export async function guardAndRecord(c: Context<AppEnv>, next: Next): Promise<Response | void> {
  const route = answeringRoute(c);
  if (!route) return next();
  const rule: RouteRule | undefined = ruleOf(route.method, route.path);
  const user = c.get('user')!;
  const params = paramsOf(route.path, c.req.path);
  const target = Object.values(params).join('/') || null;
  const record = (outcome: AuditOutcome, fields: { before?: unknown; after?: unknown; target?: string | null } = {}) =>
    recordAudit(c.env, {
      actorId: user.id,
      actor: user.username,
      ip: clientIp(c),
      action: `${route.method} ${route.path}`,
      kind: rule?.kind ?? 'account',
      description: rule?.label ?? '',
      target,
      outcome,
      ...fields,
    }).catch((err) =>
      console.error('The record of an admin action could not be written', route.method, route.path, forLog(err)),
    );

  if (!mayCall(user.role, rule?.access)) {
    await record('denied');
    return apiError(c, 403, MSG.forbidden);
  }
  const write = isWrite(c.req.method);
  const before = write && rule?.before ? await rule.before(c.env, params).catch(() => undefined) : undefined;

  // A manager's body is held to the owner's fields once valid (worker/lib/validate.ts asks here).
  let refusedBody: unknown;
  if (user.role !== 'owner' && rule?.ownerFields) {
    const fields = rule.ownerFields;
    const current = (before ?? {}) as Record<string, unknown>;
    c.set('guardBody', (body) => {
      if (!body || typeof body !== 'object') return undefined;
      const changes = fields.some(
        (f) => f in body && canonical((body as Record<string, unknown>)[f]) !== canonical(current[f]),
      );
      if (!changes) return undefined;
      refusedBody = body;
      return apiError(c, 403, MSG.forbidden);
    });
  }

  await next();
  // Refused inside the route (a field of the owner's, everyone's sessions): denied too.
  if (c.res.status === 403 && user.role !== 'owner')
    return void (await record('denied', refusedBody === undefined ? {} : { after: refusedBody }));
  const after = write ? (c.req.valid('json' as never) as unknown) : undefined;
  if (c.get('auditFailed')) return void (await record('failed', { after }));
  if (!write || c.res.status >= 400) return;
  await record('ok', {
    before: beforeOf(before, after, c.req.method),
    after,
    target: target ?? (await createdId(c.res)),
  });
}

/** The id a create answered with (201 `{ id }`), so the record names what was made. */
async function createdId(res: Response): Promise<string | null> {
  if (res.status !== 201 || !/^application\/json/.test(res.headers.get('content-type') ?? '')) return null;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { id?: unknown } | null;
  return typeof body?.id === 'number' ? String(body.id) : null;
}
