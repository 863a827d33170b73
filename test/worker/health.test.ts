import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import app from '../../worker/index.ts';
import type { Bindings } from '../../worker/env.ts';
import type { BuilderStatus, RebuildPort, SitePort } from '../../worker/platform/ports.ts';
import { bumpContentVersion } from '../../worker/queries/site-state.ts';
import { failingD1, login, resetDataWithAdmin, send, url } from './helpers.ts';

/**
 * GET /api/health (docs/api.md «Search, occupancy and health»), on both runtimes. The app is
 * called with the real database and the runtime's own bindings, except the two ports the states
 * are about: the served site (what its build.json says, or none) and the builder's own account.
 * The self-hosted server with a real site folder and a real rebuilder: test/node-server/health.test.ts;
 * the built demo site on each target: the e2e tests.
 */
beforeEach(resetDataWithAdmin);
afterEach(() => vi.restoreAllMocks());

const BUILT_AT = '2026-11-20T09:30:00.000Z';

/** A served site whose build.json says it shows `version`; null: only the placeholder page. */
const site = (version: number | null): SitePort => ({
  fetch: async (input) => {
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    if (path === '/build.json' && version !== null)
      return Response.json({ contentVersion: version, builtAt: BUILT_AT });
    return new Response('<!doctype html><title>Сайт готовится</title>', { status: 404 });
  },
});

const builder = (state: BuilderStatus | null): RebuildPort => ({ request: async () => {}, status: async () => state });

async function health(bindings: Partial<Bindings>) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(url('/api/health')), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return { status: res.status, body: await res.json() };
}

describe('GET /api/health', () => {
  /** [what, the live site's version against the content's (2), the builder's state, status, body] */
  const cases: [string, number | null, BuilderStatus | null, number, unknown][] = [
    ['the site is current', 2, null, 200, { ok: true, contentVersion: 2, builtAt: BUILT_AT }],
    [
      'an edit is being built (the previous site serves)',
      1,
      { state: 'building' },
      200,
      { ok: true, contentVersion: 1, builtAt: BUILT_AT },
    ],
    [
      'an older build failed but the site has caught up since',
      2,
      { state: 'failed', error: 'x' },
      200,
      { ok: true, contentVersion: 2, builtAt: BUILT_AT },
    ],
    ['no site has been built yet', null, { state: 'building' }, 503, { ok: false, error: MSG.healthNoSite }],
    [
      'the last build failed and the site is behind',
      1,
      { state: 'failed', error: 'Cannot find package' },
      503,
      { ok: false, error: MSG.healthBuildFailed },
    ],
  ];

  it.each(cases)('should tell the truth when %s', async (_, live, state, status, body) => {
    await bumpContentVersion(env);
    await bumpContentVersion(env);
    expect(await health({ ASSETS: site(live), REBUILD: builder(state) })).toEqual({ status, body });
  });

  it('should answer 503 with the reason, and log it, when the database does not answer', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await health({ DB: failingD1('reject'), ASSETS: site(2) })).toEqual({
      status: 503,
      body: { ok: false, error: MSG.healthDatabase },
    });
    expect(logged).toHaveBeenCalled();
  });

  it('should agree with the site this runtime really serves, through HTTP', async () => {
    const res = await send('GET', '/api/health');
    // The served site's build.json as the runtime's site port gives it (a developer's `dist/` on
    // Workers, DATA_DIR's site on Node); through the worker's own fetch it is the 404 page.
    const built = await env.ASSETS.fetch(url('/build.json'));
    if (built.status === 200) {
      const info = (await built.json()) as { contentVersion: number; builtAt: string };
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, contentVersion: info.contentVersion, builtAt: info.builtAt });
    } else {
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ ok: false, error: MSG.healthNoSite });
    }
  });
});

describe('POST /api/admin/publish («Повторить»)', () => {
  it('should be for the admin only', async () => {
    const res = await send('POST', '/api/admin/publish');
    expect(res.status).toBe(401);
  });

  it('should ask the builder for the current content again, without bumping its version', async () => {
    const cookie = await login();
    const asked: number[] = [];
    const version = await bumpContentVersion(env);
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(url('/api/admin/publish'), { method: 'POST', headers: { cookie } }),
      { ...env, REBUILD: { request: async (v: number) => void asked.push(v), status: async () => null } },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(202);
    expect(asked).toEqual([version]);
    expect((await send('GET', '/api/build-info').then((r) => r.json())) as unknown).toEqual({
      contentVersion: version,
    });
  });

  it('should say why where nothing can rebuild from the panel', async () => {
    const cookie = await login();
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(url('/api/admin/publish'), { method: 'POST', headers: { cookie } }),
      { ...env, REBUILD: undefined },
      ctx,
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: MSG.publishUnavailable });
  });
});
