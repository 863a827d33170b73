import type { InferResponseType } from 'hono/client';
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../../worker/env.ts';
import { pushAvito } from '../../worker/channels/avito-sync.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { api } from '../../worker/app.ts';
import {
  expectError,
  expectNoChange,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
  answerOf,
  client,
  jsonOf,
  type Api,
  type Booked,
  putSeasons,
} from './helpers.ts';

// What the routes answer, as the typed client knows them.
type Channels = InferResponseType<Api['admin']['channels']['$get'], 200>;
type Occupancy = InferResponseType<Api['admin']['occupancy']['$get'], 200>;
type Conflicts = InferResponseType<Api['admin']['conflicts']['$get'], 200>;

// One calendar across every channel (docs/api.md «Channels»): Avito through its API,
// against the Avito stand-in on 127.0.0.1 (stand-ins/avito-api.ts) that the app under test
// knows as AVITO_API_URL. The stand-in is shared by both runtimes' runs at once, so every test
// makes an account and listings of its own, and scopes failures to its own client id.

beforeEach(resetDataWithAdmin);

const avito = inject('avito');
const day = (n: number) => addDays(todayInMoscow(), n);
const control = (path: string, method = 'GET', body?: unknown) =>
  fetch(`${avito.controlUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

type Account = { clientId: string; clientSecret: string; userId: number; items: number[] };
/** An Avito account of this test's own at the stand-in, with two listings. */
async function newAccount(): Promise<Account> {
  const n = Math.floor(Math.random() * 1e9);
  const account = {
    clientId: `client-${crypto.randomUUID()}`,
    clientSecret: `secret-${crypto.randomUUID()}`,
    userId: 1e9 + n,
    items: [2e9 + n, 3e9 + n],
  };
  expect((await control('/clients', 'POST', account)).status).toBe(201);
  return account;
}
const fail = (a: Account, mode: string, opts: { times?: number; delayMs?: number } = {}) =>
  control('/fail', 'POST', { mode, clientId: a.clientId, ...opts });
const pushed = async (itemId: number) =>
  (await (await control(`/items/${itemId}/pushed`)).json()) as {
    busy: { last: { date_start: string; date_end: string; type: string }[] | null; count: number };
    prices: {
      last: { date_from: string; date_to: string; night_price: number; minimal_duration: number }[] | null;
      count: number;
    };
  };
const addAvitoBooking = async (
  itemId: number,
  b: {
    check_in: string;
    check_out: string;
    guest_count?: number;
    base_price?: number;
    status?: string;
    contact?: { name: string };
  },
) => (await (await control(`/items/${itemId}/bookings`, 'POST', b)).json()) as { avito_booking_id: number };

const schedule = (jobs: { push?: boolean; pull?: boolean }) =>
  runSchedule(env as unknown as Bindings, { push: false, pull: false, upkeep: false, ...jobs });

async function channels(cookie: string): Promise<Channels> {
  const res = await send('GET', '/api/admin/channels', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Channels;
}

async function connect(cookie: string, a: Account) {
  const res = await jsonRequest(
    'PUT',
    '/api/admin/channels/avito',
    { clientId: a.clientId, clientSecret: a.clientSecret, userId: a.userId },
    { cookie },
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

async function link(cookie: string, cabinId: number, itemId: number | null) {
  const res = await client({ cookie }).api.admin.cabins[':id'].channels.$put({
    param: { id: String(cabinId) },
    json: { avitoItemId: itemId },
  });
  return answerOf(res, 200);
}

async function availability(cabinId: number) {
  const res = await client().api.cabins[':id'].availability.$get({ param: { id: String(cabinId) } });
  return (await answerOf(res, 200)).busy;
}

describe('Avito: connecting the account and linking listings', () => {
  it('should refuse keys Avito refuses with its reason in Russian, store nothing, and accept the right ones without ever showing the secret', async () => {
    const a = await newAccount();
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await jsonRequest(
        'PUT',
        '/api/admin/channels/avito',
        { clientId: a.clientId, clientSecret: 'wrong-secret', userId: a.userId },
        { cookie },
      );
      const { error } = await expectError(res, 400);
      expect(error).toMatch(/Авито не приняло ключи/);
      expect(error).not.toContain('wrong-secret');
    });
    expect((await channels(cookie)).avito.connected).toBe(false);

    await connect(cookie, a);
    const res = await send('GET', '/api/admin/channels', { cookie });
    const text = await res.text();
    expect(text).not.toContain(a.clientSecret);
    const answer = JSON.parse(text) as Channels;
    expect(answer.avito).toMatchObject({
      connected: true,
      userId: a.userId,
      clientId: a.clientId,
      secretEnding: a.clientSecret.slice(-4),
    });
    expect(answer.avito.error).toBeUndefined();
  });

  it.each([
    ['an empty Client ID', { clientId: '', clientSecret: 's', userId: 1 }, `Client ID: ${MSG.avitoClientIdRequired}`],
    [
      'a secret with spaces',
      { clientId: 'c', clientSecret: 'a b', userId: 1 },
      `Client Secret: ${MSG.avitoKeyInvalid}`,
    ],
    ['a profile number that is no number', { clientId: 'c', clientSecret: 's', userId: 'abc' }, MSG.avitoUserIdInvalid],
  ])('should refuse %s (400) before asking Avito', async (_, body, message) => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(await jsonRequest('PUT', '/api/admin/channels/avito', body, { cookie }), 400, message),
    );
  });

  it("should refuse a listing that is not the owner's with Avito's answer, leave the cabin unlinked, and link the owner's own", async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await expectError(
      await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/channels`, { avitoItemId: a.items[0] }, { cookie }),
      409,
      MSG.avitoNotConnected,
    );
    await connect(cookie, a);
    const foreign = await jsonRequest(
      'PUT',
      `/api/admin/cabins/${cabin.id}/channels`,
      { avitoItemId: 999_999_999 },
      { cookie },
    );
    expect((await expectError(foreign, 400)).error).toMatch(/не нашло объявление 999999999/);
    expect((await channels(cookie)).cabins.find((c) => c.id === cabin.id)!.avitoItemId).toBeNull();

    const linked = await link(cookie, cabin.id, a.items[0]!);
    expect(linked.results.every((r) => r.ok)).toBe(true);
    expect((await channels(cookie)).cabins.find((c) => c.id === cabin.id)).toMatchObject({
      avitoItemId: a.items[0],
      avito: { lastPushAt: expect.any(String), lastPullAt: expect.any(String) },
    });
    // One listing, one cabin.
    const other = await seedCabin();
    await expectError(
      await jsonRequest('PUT', `/api/admin/cabins/${other.id}/channels`, { avitoItemId: a.items[0] }, { cookie }),
      409,
      MSG.avitoItemTaken,
    );
  });
});

describe('Avito: our busy nights and prices go there', () => {
  it("should send a confirmed booking, an owner's block and its removal to Avito within the minute, and nothing when nothing changed", async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 4500 });
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    const item = a.items[0]!;
    expect((await pushed(item)).busy.last).toEqual([]);
    expect((await pushed(item)).prices.last![0]).toMatchObject({
      date_from: day(0),
      night_price: 4500,
      minimal_duration: 1,
    });

    // A request confirmed by the owner.
    const booked = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { checkIn: day(10), checkOut: day(13) }),
    );
    const { id } = await jsonOf<Booked>(booked, 201);
    expect((await jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })).status).toBe(
      200,
    );
    await schedule({ push: true });
    expect((await pushed(item)).busy.last).toEqual([{ date_start: day(10), date_end: day(13), type: 'manual' }]);

    // A block beside it, then its removal.
    const block = await client({ cookie }).api.admin.cabins[':id'].blocks.$post({
      param: { id: String(cabin.id) },
      json: { start: day(13), end: day(15), note: 'Ремонт' },
    });
    expect(block.status).toBe(201);
    await schedule({ push: true });
    expect((await pushed(item)).busy.last).toEqual([{ date_start: day(10), date_end: day(15), type: 'manual' }]);
    const before = (await pushed(item)).busy.count;
    await schedule({ push: true });
    expect((await pushed(item)).busy.count).toBe(before);
    expect((await send('DELETE', `/api/admin/blocks/${(await answerOf(block, 201)).id}`, { cookie })).status).toBe(200);
    await schedule({ push: true });
    expect((await pushed(item)).busy.last).toEqual([{ date_start: day(10), date_end: day(13), type: 'manual' }]);
  });

  it('should send seasons, their minimum stay and the price between them when they change', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin({ pricePerNight: 5000 });
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[1]!);
    expect(
      (
        await putSeasons(cookie, cabin.id, {
          seasons: [{ start: day(30), end: day(60), pricePerNight: 8000, minNights: 3 }],
          minNights: 2,
        })
      ).status,
    ).toBe(200);
    await schedule({ push: true });
    expect((await pushed(a.items[1]!)).prices.last).toEqual([
      { date_from: day(0), date_to: day(29), night_price: 5000, minimal_duration: 2 },
      { date_from: day(30), date_to: day(59), night_price: 8000, minimal_duration: 3 },
      { date_from: day(60), date_to: day(364), night_price: 5000, minimal_duration: 2 },
    ]);
  });

  it('should keep trying while Avito is down, say why in the panel, and get through once it is back, never holding a booking', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    await fail(a, 'down');
    const t0 = Date.now();
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(5), end: day(7) }, { cookie }))
        .status,
    ).toBe(201);
    expect(
      (await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn: day(20), checkOut: day(22) })))
        .status,
    ).toBe(201);
    expect(Date.now() - t0).toBeLessThan(5000);
    await schedule({ push: true });
    const failing = (await channels(cookie)).cabins.find((c) => c.id === cabin.id)!;
    expect(failing.avito.error).toMatch(/Авито не отвечает/);
    expect((await pushed(a.items[0]!)).busy.last).toEqual([]);

    await fail(a, 'none');
    // The next try waits out its pause; «Синхронизировать сейчас» does not.
    const sync = await client({ cookie }).api.admin.channels.sync.$post();
    const results = (await answerOf(sync, 200)).avito.filter((r) => r.cabinId === cabin.id);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await pushed(a.items[0]!)).busy.last).toEqual([{ date_start: day(5), date_end: day(7), type: 'manual' }]);
    expect((await channels(cookie)).cabins.find((c) => c.id === cabin.id)!.avito.error).toBeUndefined();
  });

  it.each([
    ['answers garbage', 'garbage', /Авито ответило непонятно/],
    ['asks to slow down (429)', 'rate', /реже/],
  ])('should note it when Avito %s, and change nothing it holds', async (_, mode, reason) => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    await fail(a, mode);
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(5), end: day(7) }, { cookie }))
        .status,
    ).toBe(201);
    await schedule({ push: true });
    expect((await channels(cookie)).cabins.find((c) => c.id === cabin.id)!.avito.error).toMatch(reason);
    expect((await pushed(a.items[0]!)).busy.last).toEqual([]);
    await fail(a, 'none');
  });

  it('should give up on an Avito that answers in 30 s within its time limit, send nothing half, and never hold a visitor meanwhile', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(5), end: day(7) }, { cookie }))
        .status,
    ).toBe(201);
    await fail(a, 'slow', { delayMs: 30_000 });
    // The push waits for Avito (here half a second instead of the schedule's 15 s) while visitors go on.
    const pushing = pushAvito(env as unknown as Bindings, { timeoutMs: 500 });
    const t0 = Date.now();
    expect((await send('GET', `/api/cabins/${cabin.id}/availability`)).status).toBe(200);
    expect(
      (await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn: day(20), checkOut: day(22) })))
        .status,
    ).toBe(201);
    expect(Date.now() - t0).toBeLessThan(2000);
    const [result] = await pushing;
    expect(result).toMatchObject({
      cabinId: cabin.id,
      ok: false,
      error: expect.stringMatching(/Авито не отвечает \(нет ответа за 0,5 с\)/),
    });
    expect((await pushed(a.items[0]!)).busy.last).toEqual([]);
    expect((await channels(cookie)).cabins.find((c) => c.id === cabin.id)!.avito.error).toMatch(/нет ответа/);
    await fail(a, 'none');
  });

  it('should tell the owner in the panel that a revoked key must be made anew', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    expect((await control(`/clients/${a.clientId}/revoke`, 'POST')).status).toBeLessThan(300);
    const sync = await send('POST', '/api/admin/channels/sync', { cookie });
    expect(sync.status).toBe(200);
    const answer = await channels(cookie);
    expect(answer.avito.error).toMatch(/ключ отозван — создайте новый в личном кабинете Авито/);
    expect(answer.cabins.find((c) => c.id === cabin.id)!.avito.error).toMatch(/ключ отозван/);
  });
});

describe('Avito: its bookings are busy here', () => {
  it('should make an Avito booking (unpaid ones too) busy on the site and in «Шахматка» as «Авито» with guests and price, and free its nights once Avito cancels it', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    const paid = await addAvitoBooking(a.items[0]!, {
      check_in: day(8),
      check_out: day(11),
      guest_count: 3,
      base_price: 15000,
      contact: { name: 'Алия' },
    });
    await addAvitoBooking(a.items[0]!, {
      check_in: day(20),
      check_out: day(22),
      guest_count: 2,
      base_price: 9000,
      status: 'pending',
    });
    await schedule({ pull: true });
    expect(await availability(cabin.id)).toEqual([
      { start: day(8), end: day(11) },
      { start: day(20), end: day(22) },
    ]);
    // A visitor can no longer ask for those nights.
    await expectError(
      await jsonRequest('POST', '/api/bookings', validBooking(cabin.id, { checkIn: day(9), checkOut: day(10) })),
      409,
      MSG.bookingNotFree,
    );

    const occ = (await (
      await send('GET', `/api/admin/occupancy?from=${day(0)}&days=31`, { cookie })
    ).json()) as Occupancy;
    expect(occ.cabins.find((c) => c.id === cabin.id)!.ranges).toEqual([
      { start: day(8), end: day(11), kind: 'channel', label: 'Авито', guests: 3, price: 15000 },
      { start: day(20), end: day(22), kind: 'channel', label: 'Авито', guests: 2, price: 9000 },
    ]);
    const stays = await answerOf(await client({ cookie }).api.admin.channels.stays.$get(), 200);
    expect(stays.map((s) => [s.start, s.status, s.guestName])).toEqual([
      [day(8), 'active', 'Алия'],
      [day(20), 'pending', ''],
    ]);
    // Avito's own bookings are not sent back to it as ours.
    await schedule({ push: true });
    expect((await pushed(a.items[0]!)).busy.last).toEqual([]);

    expect((await control(`/items/${a.items[0]}/bookings/${paid.avito_booking_id}`, 'DELETE')).status).toBe(200);
    await schedule({ pull: true });
    expect(await availability(cabin.id)).toEqual([{ start: day(20), end: day(22) }]);
  });

  it('should alert the owner once and show red in «Шахматка» when an Avito booking lands on nights confirmed here, cancelling nothing', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin({ name: 'Домик с верандой' });
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    const booked = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { checkIn: day(10), checkOut: day(14), name: 'Мадина' }),
    );
    const { id } = (await booked.json()) as Booked;
    expect((await jsonRequest('PUT', `/api/admin/bookings/${id}`, { status: 'confirmed' }, { cookie })).status).toBe(
      200,
    );
    await addAvitoBooking(a.items[0]!, { check_in: day(12), check_out: day(16), guest_count: 2, base_price: 12000 });

    // Alerts go by e-mail among others: the owner's mailbox here is the MAILER port, watched below.
    const sent: { subject: string; text: string }[] = [];
    const withMail = {
      ...(env as unknown as Bindings),
      MAILER: { send: async (m: { subject: string; text: string }) => void sent.push(m) },
    };
    await runSchedule(withMail, { push: false, pull: true, upkeep: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toMatch(/^Двойное бронирование: «Домик с верандой», /);
    expect(sent[0]!.text).toContain(`бронирование №${id} на сайте (Мадина)`);
    expect(sent[0]!.text).toContain('Авито');
    expect(sent[0]!.text).toContain('Ничего не отменено');

    const conflicts = (await (await send('GET', '/api/admin/conflicts', { cookie })).json()) as Conflicts;
    expect(conflicts).toEqual([
      {
        cabinId: cabin.id,
        cabinName: 'Домик с верандой',
        start: day(12),
        end: day(14),
        stays: [
          { kind: 'booking', label: 'Мадина', start: day(10), end: day(14), bookingId: id },
          { kind: 'channel', label: 'Авито', start: day(12), end: day(16), guests: 2, price: 12000 },
        ],
      },
    ]);
    const occ = (await (
      await send('GET', `/api/admin/occupancy?from=${day(0)}&days=31`, { cookie })
    ).json()) as Occupancy;
    expect(occ.cabins.find((c) => c.id === cabin.id)!.ranges.map((r) => [r.kind, r.conflict])).toEqual([
      ['booking', true],
      ['channel', true],
    ]);
    // Nothing was cancelled: the booking stays confirmed.
    const list = await answerOf(await client({ cookie }).api.admin.bookings.$get({ query: {} }), 200);
    expect(list.find((b) => b.id === id)!.status).toBe('confirmed');

    // Found again at the next read: not alerted again.
    await runSchedule(withMail, { push: false, pull: true, upkeep: false });
    expect(sent).toHaveLength(1);
  });
});

describe("Avito: a Worker's outbound requests per run", () => {
  it("should read the listings waiting longest within the run's budget, and the rest at the next ticks", async () => {
    const a = { ...(await newAccount()) };
    const extra = Array.from({ length: 3 }, (_, i) => a.items[1]! + 1000 * (i + 1));
    expect((await control('/clients', 'POST', { ...a, items: [...a.items, ...extra] })).status).toBe(201);
    const cookie = await login();
    await connect(cookie, a);
    const cabins = [];
    for (const item of [...a.items, ...extra]) {
      const cabin = await seedCabin();
      await link(cookie, cabin.id, item);
      cabins.push(cabin.id);
    }
    // Every listing last read 10 minutes ago, the first ones longest.
    for (const [i, id] of cabins.entries()) {
      await env.DB.prepare('UPDATE channel_links SET last_pull_at = ? WHERE cabin_id = ?')
        .bind(new Date(Date.now() - (20 - i) * 60_000).toISOString(), id)
        .run();
    }
    const reads = async () =>
      (
        (await (await control(`/log?clientId=${encodeURIComponent(a.clientId)}`)).json()) as {
          requests: { method: string; path: string }[];
        }
      ).requests.filter((r) => r.method === 'GET' && r.path.endsWith('/bookings')).length;
    const before = await reads();
    // A budget of 8 outbound requests, a quarter of them for reading: 2 listings read this tick.
    const tick = () =>
      runSchedule(
        { ...(env as unknown as Bindings), SUBREQUESTS_PER_RUN: 8 },
        { push: true, pull: false, upkeep: false },
      );
    await tick();
    expect((await reads()) - before).toBe(2);
    const read = (
      await env.DB.prepare('SELECT cabin_id AS id FROM channel_links WHERE last_pull_at > ? ORDER BY cabin_id')
        .bind(new Date(Date.now() - 60_000).toISOString())
        .all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(read).toEqual(cabins.slice(0, 2));
    await tick();
    await tick();
    expect((await reads()) - before).toBe(5);
    // All read within their 5 minutes now: the next tick reads none.
    await tick();
    expect((await reads()) - before).toBe(5);

    // «Синхронизировать сейчас» keeps within the same budget: the two waiting longest now, the rest said to follow.
    const sync = await api.request(
      'http://127.0.0.1/api/admin/channels/sync',
      { method: 'POST', headers: { cookie, origin: 'http://127.0.0.1' } },
      { ...(env as unknown as Bindings), SUBREQUESTS_PER_RUN: 6 },
    );
    expect(sync.status).toBe(200);
    const answer = (await sync.json()) as InferResponseType<Api['admin']['channels']['sync']['$post'], 200>;
    expect(answer.later).toBe(3);
    expect((await reads()) - before).toBe(7);
  });
});

describe("channels: the admin routes are the owner's", () => {
  it.each([
    ['GET', '/api/admin/channels'],
    ['PUT', '/api/admin/channels/avito'],
    ['DELETE', '/api/admin/channels/avito'],
    ['PUT', '/api/admin/cabins/1/channels'],
    ['POST', '/api/admin/channels/sync'],
    ['GET', '/api/admin/conflicts'],
    ['GET', '/api/admin/channels/stays'],
    ['POST', '/api/admin/feeds/1/0/accept-empty'],
  ])('should answer %s %s with 401 without a session', async (method, path) => {
    await expectError(await jsonRequest(method, path, method === 'GET' ? undefined : {}), 401);
  });

  it('should disconnect Avito: its bookings no longer hold nights, the listings keep their numbers', async () => {
    const a = await newAccount();
    const cookie = await login();
    const cabin = await seedCabin();
    await connect(cookie, a);
    await link(cookie, cabin.id, a.items[0]!);
    await addAvitoBooking(a.items[0]!, { check_in: day(3), check_out: day(5) });
    await schedule({ pull: true });
    expect(await availability(cabin.id)).toEqual([{ start: day(3), end: day(5) }]);
    expect((await send('DELETE', '/api/admin/channels/avito', { cookie })).status).toBe(200);
    const answer = await channels(cookie);
    expect(answer.avito.connected).toBe(false);
    expect(answer.cabins.find((c) => c.id === cabin.id)!.avitoItemId).toBe(a.items[0]);
    expect(await availability(cabin.id)).toEqual([]);
    // With no account the schedule does nothing and fails nothing.
    await schedule({ push: true, pull: true });
  });
});
