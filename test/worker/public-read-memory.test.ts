import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import app from '../../worker/index.ts';
import { publicReadMemory } from '../../worker/platform/public-read-memory.ts';
import { resetDataWithAdmin, seedCabin, url, validBooking } from './helpers.ts';

// The Worker's memory of public reads (worker/platform/public-read-memory.ts), called with `env`
// and the real app behind it, counting what reaches the app and D1. The contract of what a
// visitor then reads is public-reads.test.ts, through each server.

beforeEach(resetDataWithAdmin);

function memoryBeforeApp() {
  const answer = publicReadMemory();
  const seen = { app: 0, queries: 0 };
  const db = {
    prepare: (sql: string) => {
      seen.queries += 1;
      return env.DB.prepare(sql);
    },
    batch: env.DB.batch.bind(env.DB),
  } as typeof env.DB;
  const bindings = { ...env, DB: db };
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  const later: Promise<unknown>[] = [];
  const fetch = async (path: string, init?: RequestInit) => {
    const req = new Request(url(path), init);
    const res = await answer(req, bindings, (work) => later.push(work), () => {
      seen.app += 1;
      return app.fetch(req, bindings, ctx);
    });
    // What the memory does after answering (the moment the answer stops being true) is done here.
    await Promise.all(later.splice(0));
    return res;
  };
  return { fetch, seen };
}

describe('the Worker keeping answers to public reads', () => {
  it('should answer a repeated public read with one query, the data stamp, and the same answer', async () => {
    const cabin = await seedCabin();
    const { fetch, seen } = memoryBeforeApp();
    const { checkIn, checkOut } = validBooking(cabin.id);
    const reads = ['/api/cabins', `/api/cabins/${cabin.id}`, `/api/cabins/${cabin.id}/availability`, `/api/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`, '/api/prices', '/api/reviews/approved', '/api/settings'];
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
      expect(seen.queries - before.queries, `${path}: D1 queries`).toBe(1);
    }
  });

  it('should go to the app again after a write to any table a public read is made from, not after sign-in throttling', async () => {
    const cabin = await seedCabin();
    const { fetch, seen } = memoryBeforeApp();
    const path = `/api/cabins/${cabin.id}/availability`;
    const writes = [
      ['UPDATE cabins SET price_per_night = price_per_night + 1', []],
      ["INSERT INTO calendar_blocks (cabin_id, start, \"end\", note, created_at) VALUES (?, '2030-01-01', '2030-01-03', '', '2030-01-01T00:00:00.000Z')", [cabin.id]],
      ["INSERT INTO settings (key, value) VALUES ('heroTitle', '\"А\"') ON CONFLICT (key) DO UPDATE SET value = excluded.value", []],
      ["INSERT INTO settings (key, value) VALUES ('heroTitle', '\"Б\"') ON CONFLICT (key) DO UPDATE SET value = excluded.value", []],
      ['DELETE FROM calendar_blocks', []],
    ] as const;
    await fetch(path);
    for (const [sql, args] of writes) {
      const before = seen.app;
      await fetch(path);
      expect(seen.app, `kept before: ${sql}`).toBe(before);
      await env.DB.prepare(sql).bind(...args).run();
      await fetch(path);
      expect(seen.app, `after: ${sql}`).toBe(before + 1);
    }
    const before = seen.app;
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES ('login:203.0.113.9', 0, 1)").run();
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
    await fetch('/api/cabins');
    const again = await fetch('/api/cabins');
    expect(seen.app).toBe(3);
    expect(((await again.json()) as { name: string }[])[0]!.name).toBe('Домик у моря 2');
  });
});
