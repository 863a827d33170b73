import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { SEARCH_MARKERS } from '../../schema/search-page.ts';
import app from '../../worker/index.ts';
import { login, resetDataWithAdmin, seedCabin, url } from './helpers.ts';
import { block, countingDb } from './stays.ts';

// How many exchanges with the database a search and the owner's chart cost: D1 sits
// further from the Worker in production than here, so each route reads all it needs in one
// batch. The app is called in this process with its database port counted (the real D1 or
// SQLite file behind it), on both runtimes; kept answers (worker/platform/) are not in the way.

const day = (n: number) => addDays(todayInMoscow(), n);

/**
 * The built site's search shell, as small as the server's filling needs: the node-api project
 * has no built site, so both runtimes are given this one. Cards are not in it: each result is the
 * card the server writes for a cabin the build has not seen, with its name.
 */
const shell = `<!doctype html><title>${SEARCH_MARKERS.title}</title><h1>${SEARCH_MARKERS.heading}</h1><form><input value="${SEARCH_MARKERS.checkIn}"><input value="${SEARCH_MARKERS.checkOut}"><input value="${SEARCH_MARKERS.guests}"></form>${SEARCH_MARKERS.error}${SEARCH_MARKERS.results}`;
const site = {
  fetch: async (input: URL | string | Request) =>
    new URL(input instanceof Request ? input.url : input).pathname === '/shell/search'
      ? new Response(shell)
      : new Response('Not found', { status: 404 }),
};

const stay = () => `checkIn=${day(30)}&checkOut=${day(33)}&guests=2`;
const cases = [
  { name: 'GET /api/search', path: () => `/api/search?${stay()}`, signedIn: false },
  { name: 'the /search page', path: () => `/search?${stay()}`, signedIn: false },
  // The session is read first (one round trip of its own, as on every admin route): a query the
  // route refuses after it counts it alone.
  {
    name: 'GET /api/admin/occupancy',
    path: () => `/api/admin/occupancy?from=${day(0)}&days=31`,
    signedIn: true,
    sessionOnly: '/api/admin/occupancy?days=0',
  },
];

beforeEach(resetDataWithAdmin);

describe('round trips to the database', () => {
  it.each(cases)(
    'should make $name read its data in one round trip, at most one on a repeat, and exactly one after a write that it shows',
    async ({ path, signedIn, sessionOnly }) => {
      const cabin = await seedCabin({ name: 'Домик у моря' });
      await seedCabin({ name: 'Домик в саду' });
      const cookie = signedIn ? await login() : undefined;
      // Something for each source to read: a block on the chart, nothing in the stay searched for.
      await block(cookie ?? (await login()), cabin.id, day(5), day(8));
      const counted = countingDb();
      const bindings = { ...counted.env, ASSETS: site };
      const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
      const request = async (p: string) => {
        const before = counted.roundTrips;
        const res = await app.fetch(new Request(url(p), { headers: cookie ? { cookie } : {} }), bindings, ctx);
        return { status: res.status, text: await res.text(), roundTrips: counted.roundTrips - before };
      };
      let session = 0;
      if (sessionOnly) {
        const refused = await request(sessionOnly);
        expect(refused.status).toBe(400);
        session = refused.roundTrips;
        expect(session, 'the session read').toBe(1);
      }

      const first = await request(path());
      expect(first.status).toBe(200);
      expect(first.text).toContain('Домик у моря');
      expect(first.roundTrips - session).toBe(1);

      const again = await request(path());
      expect(again.text).toBe(first.text);
      expect(again.roundTrips - session).toBeLessThanOrEqual(1);

      // Written straight to the database, as another isolate, the cron or a restore would.
      await env.DB.prepare('UPDATE cabins SET name = ? WHERE id = ?').bind('Домик у причала', cabin.id).run();
      const after = await request(path());
      expect(after.status).toBe(200);
      expect(after.text).toContain('Домик у причала');
      expect(after.text).not.toContain('Домик у моря');
      expect(after.roundTrips - session).toBe(1);
    },
  );
});
