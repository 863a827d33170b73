import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import app from '../../worker/index.ts';
import { publicReadMemory, STAMP_TRUST_MS } from '../../worker/platform/public-read-memory.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { login, resetDataWithAdmin, seedCabin, url, validBooking, type Api } from './helpers.ts';
import { countingDb } from './stays.ts';

// The Worker's memory of public reads (worker/platform/public-read-memory.ts), called with `env`
// and the real app behind it, counting what reaches the app and D1. The contract of what a
// visitor then reads is public-reads.test.ts, through each server.

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

const day = (n: number) => addDays(todayInMoscow(), n);
/** What GET /api/cabins answers: the active cabins. */
type Cabins = InferResponseType<Api['cabins']['$get'], 200>;

/** The clock, frozen now, or moved on by `ms`. */
const clockOn = (ms = 0) => {
  const at = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at + ms);
};

/** A statement (and what its bind gives) whose answers wait for `hold` once D1 has given them. */
function heldAfterAnswer(statement: D1PreparedStatement, hold: () => Promise<unknown>): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name === 'bind') return (...args: unknown[]) => heldAfterAnswer(value.apply(target, args), hold);
      return async (...args: unknown[]) => {
        const answer = await value.apply(target, args);
        await hold();
        return answer;
      };
    },
  });
}

function memoryBeforeApp(opts: { stampRead?: () => Promise<unknown> } = {}) {
  const answer = publicReadMemory();
  const seen = { app: 0, queries: 0 };
  const db = {
    prepare: (sql: string) => {
      seen.queries += 1;
      const statement = env.DB.prepare(sql);
      // The data stamp's query, held after D1 answered it until the test lets it through.
      if (opts.stampRead && /data_stamp/.test(sql)) return heldAfterAnswer(statement, opts.stampRead);
      return statement;
    },
    batch: env.DB.batch.bind(env.DB),
  } as typeof env.DB;
  const bindings = { ...env, DB: db };
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  const later: Promise<unknown>[] = [];
  const fetch = async (path: string, init?: RequestInit) => {
    const req = new Request(url(path), init);
    const res = await answer(
      req,
      bindings,
      (work) => later.push(work),
      (given) => {
        seen.app += 1;
        return app.fetch(req, given, ctx);
      },
    );
    // What the memory does after answering (the moment the answer stops being true) is done here.
    await Promise.all(later.splice(0));
    return res;
  };
  return { fetch, seen, forgetStamp: answer.forgetStamp };
}

describe('the Worker keeping answers to public reads', () => {
  it('should answer a repeated public read with the same answer, asking D1 only for the data stamp and at most once a second', async () => {
    const cabin = await seedCabin();
    clockOn();
    const { fetch, seen } = memoryBeforeApp();
    const { checkIn, checkOut } = validBooking(cabin.id);
    const reads = [
      '/api/cabins',
      `/api/cabins/${cabin.id}`,
      `/api/cabins/${cabin.id}/availability`,
      `/api/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`,
      '/api/prices',
      '/api/reviews/approved',
      '/api/settings',
    ];
    for (const path of reads) {
      const first = await fetch(path);
      expect(first.status, path).toBe(200);
      const body = await first.text();
      const before = { ...seen };
      const again = await fetch(path);
      expect(again.status, path).toBe(200);
      expect(await again.text(), path).toBe(body);
      expect(again.headers.get('content-type'), path).toBe(first.headers.get('content-type'));
      expect(again.headers.get('cache-control'), path).toBe(first.headers.get('cache-control'));
      expect(seen.app - before.app, `${path}: the app ran again`).toBe(0);
      expect(seen.queries - before.queries, `${path}: D1 queries within the second`).toBe(0);
      clockOn(STAMP_TRUST_MS);
      expect(await (await fetch(path)).text(), path).toBe(body);
      expect(seen.app - before.app, `${path}: the app ran again`).toBe(0);
      expect(seen.queries - before.queries, `${path}: D1 queries a second later`).toBe(1);
    }
  });

  it("should read a search it has not kept in one round trip to D1, the search's own, and keep the answer under the stamp that batch read", async () => {
    const cabin = await seedCabin();
    clockOn();
    const answer = publicReadMemory();
    const counted = countingDb();
    // The one query the memory makes once the answer is on its way (when the clock alone changes
    // it: publicReadsChangeAt) is not one the visitor waits for.
    let clockReads = 0;
    const db = counted.env.DB;
    const bindings = {
      ...counted.env,
      DB: {
        prepare: (sql: string) => ((clockReads += /min\("hold_until"\)/.test(sql) ? 1 : 0), db.prepare(sql)),
        batch: db.batch.bind(db),
      } as typeof env.DB,
    };
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const later: Promise<unknown>[] = [];
    let appRuns = 0;
    /** The answer, and the round trips made before the visitor had it. */
    const search = async (from: number) => {
      const req = new Request(url(`/api/search?checkIn=${day(from)}&checkOut=${day(from + 3)}&guests=2`));
      const before = counted.roundTrips - clockReads;
      const res = await answer(
        req,
        bindings,
        (work) => later.push(work),
        (given) => {
          appRuns += 1;
          return app.fetch(req, given, ctx);
        },
      );
      const roundTrips = counted.roundTrips - clockReads - before;
      await Promise.all(later.splice(0));
      return { status: res.status, text: await res.text(), roundTrips };
    };

    // A new isolate: no stamp trusted, nothing kept. One batch, the search's own.
    const first = await search(30);
    expect(first.status).toBe(200);
    expect(first.text).toContain(cabin.name);
    expect(first.roundTrips).toBe(1);
    // Kept under the stamp that batch read, which is trusted for a second: no round trip.
    const again = await search(30);
    expect(again).toEqual({ ...first, roundTrips: 0 });
    expect(appRuns).toBe(1);
    // Another stay within the second: the app's one batch again.
    expect((await search(40)).roundTrips).toBe(1);
    // A second later, the kept answer costs only the stamp.
    clockOn(STAMP_TRUST_MS);
    expect(await search(30)).toEqual({ ...first, roundTrips: 1 });
    expect(appRuns).toBe(2);

    // Another writer fills the stay searched for: once the second is over, the search shows it.
    await env.DB.prepare(
      "INSERT INTO calendar_blocks (cabin_id, start, \"end\", note, created_at) VALUES (?, ?, ?, '', '2030-01-01T00:00:00.000Z')",
    )
      .bind(cabin.id, day(30), day(33))
      .run();
    clockOn(STAMP_TRUST_MS);
    const after = await search(30);
    expect(after.text).not.toBe(first.text);
    expect(JSON.parse(after.text).results).toEqual([]);
  });

  it('should go to the app again after a write to any table a public read is made from, not after sign-in throttling', async () => {
    const cabin = await seedCabin();
    const { fetch, seen } = memoryBeforeApp();
    const path = `/api/cabins/${cabin.id}/availability`;
    const writes = [
      ['UPDATE cabins SET price_per_night = price_per_night + 1', []],
      [
        "INSERT INTO calendar_blocks (cabin_id, start, \"end\", note, created_at) VALUES (?, '2030-01-01', '2030-01-03', '', '2030-01-01T00:00:00.000Z')",
        [cabin.id],
      ],
      [
        "INSERT INTO settings (key, value) VALUES ('heroTitle', '\"А\"') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [],
      ],
      [
        "INSERT INTO settings (key, value) VALUES ('heroTitle', '\"Б\"') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [],
      ],
      ['DELETE FROM calendar_blocks', []],
    ] as const;
    clockOn();
    await fetch(path);
    for (const [sql, args] of writes) {
      const before = seen.app;
      await fetch(path);
      expect(seen.app, `kept before: ${sql}`).toBe(before);
      await env.DB.prepare(sql)
        .bind(...args)
        .run();
      clockOn(STAMP_TRUST_MS);
      await fetch(path);
      expect(seen.app, `after: ${sql}`).toBe(before + 1);
    }
    const before = seen.app;
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES ('login:203.0.113.9', 0, 1)").run();
    clockOn(STAMP_TRUST_MS);
    await fetch(path);
    expect(seen.app).toBe(before);
  });

  it('should leave to the app whatever is not a public read, and keep no error', async () => {
    const cabin = await seedCabin();
    const { fetch, seen } = memoryBeforeApp();
    const twice = async (path: string, init?: RequestInit) => {
      const before = seen.app;
      const statuses = [(await fetch(path, init)).status, (await fetch(path, init)).status];
      expect(seen.app - before, path).toBe(2);
      return statuses;
    };
    expect(await twice('/api/cabins/9999')).toEqual([404, 404]);
    expect(await twice('/api/admin/settings')).toEqual([401, 401]);
    expect(await twice(`/api/cabins/${cabin.id}`, { headers: { authorization: 'Bearer x' } })).toEqual([200, 200]);
    expect(await twice(`/api/cabins/${cabin.id}`, { method: 'HEAD' })).toEqual([200, 200]);
    expect((await twice('/api/search?checkIn=2030-01-05&checkOut=2030-01-01&guests=2'))[0]).toBe(400);
  });

  it('should keep nothing while the data stamp is missing, and again after the next write', async () => {
    const cabin = await seedCabin();
    const { fetch, seen } = memoryBeforeApp();
    await env.DB.prepare('DELETE FROM data_stamp').run();
    await fetch('/api/cabins');
    await fetch('/api/cabins');
    expect(seen.app).toBe(2);
    await env.DB.prepare('UPDATE cabins SET name = ? WHERE id = ?').bind('Домик у моря 2', cabin.id).run();
    clockOn(STAMP_TRUST_MS);
    await fetch('/api/cabins');
    const again = await fetch('/api/cabins');
    expect(seen.app).toBe(3);
    expect(((await again.json()) as Cabins)[0]!.name).toBe('Домик у моря 2');
  });

  it("should see another writer's change a second later, and this isolate's own write, the cron's and a no-cache read at once", async () => {
    const cabin = await seedCabin();
    clockOn();
    const { fetch, forgetStamp } = memoryBeforeApp();
    const path = '/api/cabins';
    const names = async (init?: RequestInit) => ((await (await fetch(path, init)).json()) as Cabins).map((c) => c.name);
    const rename = (name: string) =>
      env.DB.prepare('UPDATE cabins SET name = ? WHERE id = ?').bind(name, cabin.id).run();
    await names();

    await rename('Другой писатель');
    expect(await names(), 'within the second').toEqual(['Домик у моря']);
    clockOn(STAMP_TRUST_MS - 1);
    expect(await names(), 'just before the second is over').toEqual(['Домик у моря']);
    clockOn(1);
    expect(await names()).toEqual(['Другой писатель']);

    // The owner's save through this isolate (any request that may write).
    const cookie = await login();
    const res = await fetch(`/api/cabins/${cabin.id}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.7' },
      body: JSON.stringify({ name: 'Сохранено владельцем' }),
    });
    expect(res.status).toBe(200);
    expect(await names()).toEqual(['Сохранено владельцем']);

    // The cron's import, then the entry's word that it ran.
    await rename('После расписания');
    forgetStamp();
    expect(await names()).toEqual(['После расписания']);

    // The site's build asks for it.
    await rename('Для сборки');
    expect(await names({ headers: { 'cache-control': 'no-cache' } })).toEqual(['Для сборки']);
  });

  it('should not trust a data stamp read before a write that finished while it was on its way', async () => {
    const cabin = await seedCabin();
    clockOn();
    let release: (() => void) | undefined;
    let holding = false;
    const { fetch } = memoryBeforeApp({
      stampRead: () => (holding ? new Promise<void>((r) => (release = r)) : Promise.resolve()),
    });
    const path = '/api/cabins';
    const names = async (res: Response) => ((await res.json()) as Cabins).map((c) => c.name);
    await fetch(path);

    clockOn(STAMP_TRUST_MS);
    holding = true;
    const slowRead = fetch(path);
    await vi.waitFor(() => expect(release).not.toBe(undefined));
    holding = false;
    const cookie = await login();
    expect(
      (
        await fetch(`/api/cabins/${cabin.id}`, {
          method: 'PUT',
          headers: { cookie, 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.8' },
          body: JSON.stringify({ name: 'Новое имя' }),
        })
      ).status,
    ).toBe(200);
    release!();
    expect(await names(await slowRead), 'the read that began before the save').toEqual(['Домик у моря']);
    expect(await names(await fetch(path)), 'the next read').toEqual(['Новое имя']);
  });
});
