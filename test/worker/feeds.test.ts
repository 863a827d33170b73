import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { FEED_EMPTY_HELD } from '../../schema/calendar.ts';
import type { ChannelsAnswer } from '../../schema/channels.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { expectError, jsonRequest, login, resetDataWithAdmin, seedCabin, send, answerOf, client } from './helpers.ts';

// iCal that never loses a night, on both runtimes: other platforms' calendars
// served by stand-ins/feed-server.ts on 127.0.0.1, read through the app's own sync.

beforeEach(resetDataWithAdmin);

const feedsUrl = inject('feedsUrl');
const day = (n: number) => addDays(todayInMoscow(), n);
const ymd = (d: string) => d.replaceAll('-', '');

/** A feed of all-day stays, as Суточно or Avito export them. */
const ics = (stays: [string, string, string?][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sutochno.ru//Calendar//RU',
    ...stays.flatMap(([start, end, uid]) => [
      'BEGIN:VEVENT',
      `UID:${uid ?? `${start}@sutochno.ru`}`,
      `DTSTART;VALUE=DATE:${ymd(start)}`,
      `DTEND;VALUE=DATE:${ymd(end)}`,
      'SUMMARY:Забронировано',
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** A unique name per test and runtime: both runtimes' runs share nothing but the server. */
const feedName = () => `f-${crypto.randomUUID()}.ics`;
async function serve(
  name: string,
  feed: { body: string; status?: number; etag?: string; lastModified?: string; contentType?: string },
) {
  expect((await fetch(`${feedsUrl}/_feeds/${name}`, { method: 'PUT', body: JSON.stringify(feed) })).status).toBe(204);
}
const reads = async (name: string) =>
  (await (await fetch(`${feedsUrl}/_feeds/${name}/reads`)).json()) as {
    ifNoneMatch: string | null;
    ifModifiedSince: string | null;
    status: number;
  }[];

async function withFeed(cookie: string, cabinId: number, name: string, label = 'Суточно') {
  expect(
    (
      await jsonRequest(
        'PUT',
        `/api/admin/cabins/${cabinId}/feeds`,
        { feeds: [{ name: label, url: `${feedsUrl}/${name}` }] },
        { cookie },
      )
    ).status,
  ).toBe(200);
}
const sync = async (cookie: string) => {
  const res = await client({ cookie }).api.admin['calendar-sync'].$post();
  return (await answerOf(res, 200)).results;
};

/** A cabin whose feed was read once with the nights 5–8 busy: the owner's cookie, the cabin and the feed's name. */
async function importedFeed() {
  const cookie = await login();
  const cabin = await seedCabin();
  const name = feedName();
  await serve(name, { body: ics([[day(5), day(8)]]) });
  await withFeed(cookie, cabin.id, name);
  await sync(cookie);
  return { cookie, cabin, name };
}
async function busy(cabinId: number) {
  const res = await client().api.cabins[':id'].availability.$get({ param: { id: String(cabinId) } });
  return (await answerOf(res, 200)).busy;
}

describe('iCal feeds: read often without being cut off', () => {
  it('should send back the ETag and Last-Modified of the last import and keep the nights on a 304', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const name = feedName();
    await serve(name, { body: ics([[day(5), day(8)]]), etag: '"v1"', lastModified: 'Wed, 25 Nov 2026 10:00:00 GMT' });
    await withFeed(cookie, cabin.id, name);
    expect((await sync(cookie))[0]).toMatchObject({ ok: true, events: 1 });
    const second = (await sync(cookie))[0]!;
    expect(second).toMatchObject({ ok: true, events: 1, notModified: true });
    expect((await reads(name)).map((r) => [r.ifNoneMatch, r.ifModifiedSince, r.status])).toEqual([
      [null, null, 200],
      ['"v1"', 'Wed, 25 Nov 2026 10:00:00 GMT', 304],
    ]);
    expect(await busy(cabin.id)).toEqual([{ start: day(5), end: day(8) }]);
  });

  it('should leave out our own export read back through another platform (no echo, no false conflict)', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const name = feedName();
    await serve(name, {
      body: ics([
        [day(5), day(8), 'booking-12@kaspiy'],
        [day(10), day(12), 'abc@realtycalendar.ru'],
      ]),
    });
    await withFeed(cookie, cabin.id, name, 'RealtyCalendar');
    expect((await sync(cookie))[0]).toMatchObject({ ok: true, events: 1 });
    expect(await busy(cabin.id)).toEqual([{ start: day(10), end: day(12) }]);
  });
});

describe('iCal feeds: a feed that empties out never frees every night at once', () => {
  it.each([
    ['comes back with no events', { body: ics([]) }],
    ['answers a login page', { body: '<!doctype html><html><body>Войдите</body></html>', contentType: 'text/html' }],
    ['answers an expired link (410)', { body: 'gone', status: 410 }],
  ])('should keep the nights, say why and alert the owner once when the feed %s', async (_, broken) => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'Домик у моря' });
    const name = feedName();
    await serve(name, {
      body: ics([
        [day(5), day(8)],
        [day(20), day(25)],
      ]),
    });
    await withFeed(cookie, cabin.id, name);
    expect((await sync(cookie))[0]!.ok).toBe(true);

    await serve(name, broken);
    const sent: { subject: string; text: string }[] = [];
    const owner = {
      ...(env as unknown as Bindings),
      MAILER: { send: async (m: { subject: string; text: string }) => void sent.push(m) },
    };
    await runSchedule(owner, { push: false, pull: true, upkeep: false });
    await runSchedule(owner, { push: false, pull: true, upkeep: false });
    expect(await busy(cabin.id)).toEqual([
      { start: day(5), end: day(8) },
      { start: day(20), end: day(25) },
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Календарь «Суточно» домика «Домик у моря» не обновился');
    expect(sent[0]!.text).toContain('по-прежнему заняты');
    const feed = ((await (await send('GET', '/api/admin/channels', { cookie })).json()) as ChannelsAnswer).cabins.find(
      (c) => c.id === cabin.id,
    )!.feeds[0]!;
    expect(feed.error).toBeTruthy();
    expect(feed.emptyHeld).toBe(broken.body === ics([]));
  });

  it('should free the nights when the owner accepts the empty calendar, and refuse to accept a feed that was not held', async () => {
    const { cookie, cabin, name } = await importedFeed();
    await expectError(
      await send('POST', `/api/admin/feeds/${cabin.id}/0/accept-empty`, { cookie }),
      409,
      MSG.feedNotHeld,
    );
    await expectError(
      await send('POST', `/api/admin/feeds/${cabin.id}/3/accept-empty`, { cookie }),
      404,
      MSG.feedNotFound,
    );

    await serve(name, { body: ics([]) });
    expect((await sync(cookie))[0]).toMatchObject({ ok: false, error: FEED_EMPTY_HELD });
    expect(await busy(cabin.id)).toEqual([{ start: day(5), end: day(8) }]);
    expect((await send('POST', `/api/admin/feeds/${cabin.id}/0/accept-empty`, { cookie })).status).toBe(200);
    expect(await busy(cabin.id)).toEqual([]);
    // Empty again later is simply empty now.
    expect((await sync(cookie))[0]).toMatchObject({ ok: true, events: 0 });
  });

  it('should refuse a feed over 5 MB with a clear error, keeping its last import', async () => {
    const { cookie, cabin, name } = await importedFeed();
    await serve(name, {
      body: ics([[day(5), day(8)]]).replace('END:VCALENDAR', `X-PAD:${'x'.repeat(5 * 1024 * 1024)}\r\nEND:VCALENDAR`),
    });
    const [result] = await sync(cookie);
    expect(result).toMatchObject({ ok: false });
    expect(result!.error).toMatch(/больше 5 МБ/);
    expect(await busy(cabin.id)).toEqual([{ start: day(5), end: day(8) }]);
  });
});

describe("our export: answers the platforms' conditional reads", () => {
  it('should answer 304 to its own ETag or Last-Modified until a night changes', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const { exportUrl } = await answerOf(
      await client({ cookie }).api.admin.cabins[':id'].calendar.$get({ param: { id: String(cabin.id) } }),
      200,
    );
    const path = new URL(exportUrl).pathname;
    const first = await send('GET', path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await send('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await send('GET', path, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    // The same body twice (no DTSTAMP of "now" in it).
    expect(await (await send('GET', path)).text()).toBe(await first.text());

    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(3), end: day(4) }, { cookie }))
        .status,
    ).toBe(201);
    const changed = await send('GET', path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toContain(`DTSTART;VALUE=DATE:${ymd(day(3))}`);
  });
});
