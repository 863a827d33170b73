import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { login, resetDataWithAdmin, seedCabin, seedUser, send, answerOf, client, type Api } from './helpers.ts';

// An imported calendar's address carries the other platform's private token: the owner sees it
// whole in «Календари»; a manager, and «Журнал» for everyone, see its host and last 4 characters.

beforeEach(resetDataWithAdmin);

const TOKEN = 'c0ffee5ecret77d1a1b2';
const FEED_URL = `https://ical.avito.ru/export/calendar/${TOKEN}`;
const MASKED = 'ical.avito.ru/…a1b2';

async function ownerAddsFeed() {
  const owner = await login();
  const cabin = await seedCabin();
  const saved = await client({ cookie: owner }).api.admin.cabins[':id'].feeds.$put({
    param: { id: String(cabin.id) },
    json: { feeds: [{ name: 'Авито', url: FEED_URL }] },
  });
  // The owner's own answer shows the address as typed.
  expect((await answerOf(saved, 200)).feeds[0]!.url).toBe(FEED_URL);
  await seedUser('pomoshnik', 'manager-pass-1', 'manager');
  const manager = await login({ username: 'pomoshnik', password: 'manager-pass-1' });
  return { owner, manager, cabin };
}

describe('imported calendars’ addresses', () => {
  it('should show the owner the whole address and a manager only its host and last 4 characters', async () => {
    const { owner, manager, cabin } = await ownerAddsFeed();
    const ownersView = await answerOf(
      await client({ cookie: owner }).api.admin.cabins[':id'].calendar.$get({ param: { id: String(cabin.id) } }),
      200,
    );
    expect(ownersView.feeds).toEqual([expect.objectContaining({ name: 'Авито', url: FEED_URL })]);

    for (const path of [`/api/admin/cabins/${cabin.id}/calendar`, '/api/admin/channels']) {
      const res = await send('GET', path, { cookie: manager });
      expect(res.status, path).toBe(200);
      expect(await res.clone().text(), path).not.toContain(TOKEN);
      if (path.endsWith('/calendar'))
        expect(
          ((await res.json()) as InferResponseType<Api['admin']['cabins'][':id']['calendar']['$get'], 200>).feeds,
        ).toEqual([expect.objectContaining({ name: 'Авито', url: MASKED })]);
    }
  });

  it('should keep the address in «Журнал» as its host and last 4 characters, stored so too', async () => {
    const { owner } = await ownerAddsFeed();
    const res = await send('GET', '/api/admin/audit', { cookie: owner });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toContain(TOKEN);
    const entries = (await res.json()) as InferResponseType<Api['admin']['audit']['$get'], 200>;
    expect(entries.find((e) => e.action === 'PUT /api/admin/cabins/:id/feeds')?.after).toEqual({
      feeds: [{ name: 'Авито', url: MASKED }],
    });
    const stored = await env.DB.prepare('SELECT before, after FROM audit_log').all<{
      before: string | null;
      after: string | null;
    }>();
    expect(JSON.stringify(stored.results)).not.toContain(TOKEN);
  });

  it('should hide an address an older «Журнал» entry kept in clear', async () => {
    const owner = await login();
    await env.DB.prepare(
      "INSERT INTO audit_log (at, actor_id, actor, ip, action, kind, description, target, outcome, after) VALUES (?, 1, 'admin', '203.0.113.9', 'PUT /api/admin/cabins/:id/feeds', 'channels', 'Изменены календари площадок', '1', 'ok', ?)",
    )
      .bind(Date.now(), JSON.stringify({ feeds: [{ name: 'Авито', url: FEED_URL }] }))
      .run();
    const text = await (await send('GET', '/api/admin/audit', { cookie: owner })).text();
    expect(text).not.toContain(TOKEN);
    expect(text).toContain(MASKED);
  });
});
