import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { demoBookings } from '../../scripts/demo/calendar.ts';
import { priceRequest } from '../../worker/calendar/quote.ts';
import { createBooking, setBookingStatus } from '../../worker/queries/bookings.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  type Api,
  expectError,
  expectNoChange,
  jsonOf,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  send,
} from './helpers.ts';
import { booking } from './stays.ts';

// «Сегодня» (docs/api.md «The owner's day»), on both runtimes: the day's arrivals, departures and
// stays, the marks «Заехал» and «Выехал» (one conditional write each), an early departure freeing
// the nights after it, and the tasks at the cabins with every departure's cleaning.

type Today = InferResponseType<Api['admin']['today']['$get'], 200>;
type Stay = InferResponseType<Api['admin']['bookings'][':id']['stay']['$put'], 200>;
type Tasks = InferResponseType<Api['admin']['tasks']['$get'], 200>;
type Task = InferResponseType<Api['admin']['tasks']['$post'], 201>;
type Occupancy = InferResponseType<Api['admin']['occupancy']['$get'], 200>;
type Availability = InferResponseType<Api['cabins'][':id']['availability']['$get'], 200>;

const DAY_MS = 86_400_000;
const day = (n: number) => addDays(todayInMoscow(), n);
/** The clock `days` ahead (Date only), and a session made then (one made before would have ended). */
async function later(days: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + days * DAY_MS);
  return login();
}

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

const today = (cookie: string, query = '') => send('GET', `/api/admin/today${query}`, { cookie });
const mark = (cookie: string, id: number, body: unknown) =>
  jsonRequest('PUT', `/api/admin/bookings/${id}/stay`, body, { cookie });

describe('GET /api/admin/today', () => {
  it('should list the confirmed arrivals, departures and stays of the day and the next, with times, phone and money', async () => {
    const cookie = await login();
    const a = await seedCabin({ name: 'Бриз', pricePerNight: 5000 });
    const b = await seedCabin({ name: 'Чайка', pricePerNight: 4000 });
    const arriving = await booking(cookie, a.id, day(0), day(2), true, 'Ольга');
    const tomorrow = await booking(cookie, b.id, day(1), day(4), true, 'Пётр');
    // A request, a declined and a cancelled booking are nobody's day.
    await booking(cookie, b.id, day(0), day(1), false, 'Заявка');
    const cancelled = await booking(cookie, a.id, day(2), day(3), true, 'Отмена');
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${cancelled}`, { status: 'cancelled' }, { cookie })).status,
    ).toBe(200);
    const answer = await jsonOf<Today>(await today(cookie), 200);
    expect(answer.date).toBe(day(0));
    expect(answer.next).toBe(day(1));
    expect(answer.arrivals.map((s) => [s.id, s.name, s.cabinName])).toEqual([
      [arriving, 'Ольга', 'Бриз'],
      [tomorrow, 'Пётр', 'Чайка'],
    ]);
    expect(answer.arrivals[0]).toMatchObject({
      phone: expect.stringMatching(/\d/),
      guests: 2,
      checkIn: day(0),
      checkOut: day(2),
      checkInTime: '14:00',
      checkOutTime: '12:00',
      total: expect.any(Number),
      paid: 0,
      arrivedAt: null,
      departedAt: null,
    });
    expect(answer.arrivals[0]!.toPay).toBe(answer.arrivals[0]!.total * 100);
    expect(answer.departures).toEqual([]);
    // Ольга stays the night into tomorrow (arrived today, leaves the day after).
    expect(answer.staying.map((s) => s.id)).toEqual([arriving]);
    expect(answer.deposits).toEqual([]);
    // Tomorrow seen from tomorrow: Ольга leaves the day after, so she is among the departures then.
    const next = await jsonOf<Today>(await today(cookie, `?date=${day(1)}`), 200);
    expect(next.departures.map((s) => s.id)).toEqual([arriving]);
    expect(next.tasks.map((t) => [t.kind, t.cabinName, t.due, t.bookingId, t.done])).toEqual([
      ['cleaning', 'Бриз', day(2), arriving, false],
    ]);
  });

  it('should show the demo content’s guests: one arriving, one leaving and one staying today, and an arrival and a departure tomorrow', async () => {
    const cookie = await login();
    const names: string[] = [];
    for (let index = 0; index < 5; index++) {
      const cabin = await seedCabin({ name: `Демо ${index}`, maxGuests: 10 });
      for (const { status, ...request } of demoBookings(index)) {
        const priced = await priceRequest(env, { ...request, cabinId: cabin.id });
        if (!priced.ok) throw new Error(priced.error);
        const made = await createBooking(env, { cabinId: cabin.id, ...request }, priced.priced.quote);
        if (status === 'confirmed') expect((await setBookingStatus(env, made.id, 'confirmed')).ok).toBe(true);
        names.push(request.name);
      }
    }
    const answer = await jsonOf<Today>(await today(cookie), 200);
    expect(answer.arrivals.filter((s) => s.checkIn === day(0)).map((s) => s.cabinName)).toEqual(['Демо 3']);
    expect(answer.departures.filter((s) => s.checkOut === day(0)).map((s) => s.cabinName)).toEqual(['Демо 2']);
    expect(answer.staying.map((s) => s.cabinName)).toContain('Демо 4');
    expect(answer.tasks.filter((t) => t.due === day(0)).map((t) => [t.cabinName, t.kind])).toEqual([
      ['Демо 2', 'cleaning'],
    ]);
    // Tomorrow too, for a demo started the evening before: an arrival, a departure and its cleaning.
    const next = await jsonOf<Today>(await today(cookie, `?date=${day(1)}`), 200);
    expect(next.arrivals.filter((s) => s.checkIn === day(1)).map((s) => s.cabinName)).toEqual(['Демо 2']);
    expect(next.departures.filter((s) => s.checkOut === day(1)).map((s) => s.cabinName)).toEqual(['Демо 4']);
    expect(next.tasks.filter((t) => t.due === day(1)).map((t) => [t.cabinName, t.kind])).toEqual([
      ['Демо 4', 'cleaning'],
    ]);
  });

  it('should refuse a date that is not one, and a visitor', async () => {
    const cookie = await login();
    await expectError(await today(cookie, '?date=2027-02-30'), 400, MSG.dateInvalid);
    await expectError(await send('GET', '/api/admin/today'), 401);
  });

  it('should let a manager read the day and mark a stay', async () => {
    await seedUser('manager', 'manager-password-1', 'manager');
    const owner = await login();
    const cabin = await seedCabin();
    const id = await booking(owner, cabin.id, day(0), day(2));
    const manager = await login({ username: 'manager', password: 'manager-password-1' });
    expect((await today(manager)).status).toBe(200);
    expect((await jsonOf<Stay>(await mark(manager, id, { arrived: true }), 200)).changed).toBe(true);
    expect((await send('GET', '/api/admin/tasks', { cookie: manager })).status).toBe(200);
  });
});

describe('PUT /api/admin/bookings/{id}/stay', () => {
  it('should mark the arrival once: a repeat changes nothing and says so', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const id = await booking(cookie, cabin.id, day(0), day(2));
    const first = await jsonOf<Stay>(await mark(cookie, id, { arrived: true }), 200);
    expect(first).toMatchObject({ id, changed: true, departedAt: null, departedOn: null });
    expect(first.arrivedAt).toEqual(expect.any(String));
    const again = await jsonOf<Stay>(await mark(cookie, id, { arrived: true }), 200);
    expect(again).toEqual({ ...first, changed: false });
    const answer = await jsonOf<Today>(await today(cookie), 200);
    expect(answer.arrivals[0]!.arrivedAt).toBe(first.arrivedAt);
  });

  it('should refuse a mark before the check-in day, on a request or a cancelled booking (409 in Russian, nothing changed)', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const ahead = await booking(cookie, cabin.id, day(3), day(5));
    const request = await booking(cookie, cabin.id, day(0), day(2), false);
    const cancelled = await booking(cookie, cabin.id, day(6), day(8));
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${cancelled}`, { status: 'cancelled' }, { cookie })).status,
    ).toBe(200);
    await expectNoChange(async () => {
      await expectError(await mark(cookie, ahead, { arrived: true }), 409, MSG.stayBeforeCheckIn);
      await expectError(await mark(cookie, ahead, { departed: true }), 409, MSG.stayBeforeCheckIn);
      await expectError(await mark(cookie, request, { arrived: true }), 409, MSG.stayNotConfirmed);
      await expectError(await mark(cookie, cancelled, { departed: true }), 409, MSG.stayNotConfirmed);
      await expectError(await mark(cookie, 999_999, { arrived: true }), 404, MSG.bookingNotFound);
    });
  });

  it.each([
    ['an empty body', {}, MSG.stayMarkRequired],
    ['arrived: false', { arrived: false }, MSG.stayMarkRequired],
    ['a departure day without «Выехал»', { arrived: true, departedOn: '2026-01-01' }, MSG.stayDepartedOnAlone],
    ['a departure day that is not a date', { departed: true, departedOn: 'вчера' }, MSG.dateInvalid],
    ['a field of its own', { arrived: true, paid: true }, undefined],
  ])('should refuse %s with a Russian 400, nothing changed', async (_, body, message) => {
    const cookie = await login();
    const cabin = await seedCabin();
    const id = await booking(cookie, cabin.id, day(0), day(2));
    await expectNoChange(async () => expectError(await mark(cookie, id, body), 400, message));
  });

  it('should refuse a departure day after the check-out or still ahead', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const id = await booking(cookie, cabin.id, day(0), day(3));
    await expectNoChange(async () => {
      await expectError(
        await mark(cookie, id, { departed: true, departedOn: day(4) }),
        400,
        MSG.stayDepartedAfterCheckOut,
      );
      await expectError(await mark(cookie, id, { departed: true, departedOn: day(1) }), 400, MSG.stayDepartedInFuture);
      await expectError(await mark(cookie, id, { departed: true, departedOn: day(-1) }), 409, MSG.stayBeforeCheckIn);
    });
  });

  it('should let exactly one of many «Выехал» at once act', async () => {
    const cookie = await login();
    const cabin = await seedCabin();
    const id = await booking(cookie, cabin.id, day(0), day(3));
    const answers = await Promise.all(
      Array.from({ length: 12 }, async () => jsonOf<Stay>(await mark(cookie, id, { departed: true }), 200)),
    );
    expect(answers.filter((a) => a.changed)).toHaveLength(1);
    const winner = answers.find((a) => a.changed)!;
    // Whoever lost read the winner's marks, not marks of its own.
    for (const a of answers) expect(a).toEqual({ ...winner, changed: a.changed });
    expect(winner).toMatchObject({ departedOn: day(0), arrivedAt: expect.any(String) });
  });

  it('should free the nights after an early departure: calendar, search, iCal, «Шахматка» and the cleaning move to that day', async () => {
    const owner = await login();
    const cabin = await seedCabin({ name: 'Бриз', pricePerNight: 3000, maxGuests: 4 });
    const id = await booking(owner, cabin.id, day(0), day(5), true, 'Ольга');
    const calendar = await jsonOf<{ exportUrl: string }>(
      await send('GET', `/api/admin/cabins/${cabin.id}/calendar`, { cookie: owner }),
      200,
    );
    const icalPath = new URL(calendar.exportUrl).pathname;
    // Two days later the guest leaves, three nights early.
    const cookie = await later(2);
    const left = await jsonOf<Stay>(await mark(cookie, id, { departed: true, departedOn: day(0) }), 200);
    expect(left).toMatchObject({ changed: true, departedOn: day(0), checkOut: day(3) });
    const availability = await jsonOf<Availability>(await send('GET', `/api/cabins/${cabin.id}/availability`), 200);
    expect(availability.busy.filter((r) => r.end > day(0))).toEqual([]);
    const search = await jsonOf<{ results: { id: number }[] }>(
      await send('GET', `/api/search?checkIn=${day(0)}&checkOut=${day(3)}&guests=2`),
      200,
    );
    expect(search.results.map((r) => r.id)).toContain(cabin.id);
    const ics = await (await send('GET', icalPath)).text();
    expect(ics).toContain(`DTEND;VALUE=DATE:${day(0).replaceAll('-', '')}`);
    expect(ics).not.toContain(`DTEND;VALUE=DATE:${day(3).replaceAll('-', '')}`);
    // The nights can be booked again.
    await booking(cookie, cabin.id, day(0), day(2), true, 'Пётр');
    const chart = await jsonOf<Occupancy>(
      await send('GET', `/api/admin/occupancy?from=${day(-2)}&days=7`, { cookie }),
      200,
    );
    const ranges = chart.cabins[0]!.ranges.map((r) => [r.label, r.start, r.end]);
    expect(ranges).toEqual([
      ['Ольга', day(-2), day(0)],
      ['Пётр', day(0), day(2)],
    ]);
    // Ольга's cleaning is today, not on the day she was to leave; Пётр's on his departure.
    expect(chart.cabins[0]!.cleaning).toEqual([day(0), day(2)]);
    const tasks = await jsonOf<Tasks>(
      await send('GET', `/api/admin/tasks?from=${day(-2)}&to=${day(5)}`, { cookie }),
      200,
    );
    expect(tasks.map((t) => [t.due, t.bookingId])).toEqual([
      [day(0), id],
      [day(2), expect.any(Number)],
    ]);
  });
});

describe('an early departure on Avito', () => {
  const avito = inject('avito');
  const control = async (path: string, method = 'GET', body?: unknown) =>
    fetch(`${avito.controlUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const pushedBusy = async (itemId: number) =>
    ((await (await control(`/items/${itemId}/pushed`)).json()) as { busy: { last: unknown[] | null } }).busy.last;

  it('should go to Avito the way a cancellation does: the next push sends the nights as free', async () => {
    const n = Math.floor(Math.random() * 1e9);
    const account = {
      clientId: `client-${crypto.randomUUID()}`,
      clientSecret: `secret-${crypto.randomUUID()}`,
      userId: 1e9 + n,
      items: [2e9 + n],
    };
    expect((await control('/clients', 'POST', account)).status).toBe(201);
    const cookie = await login();
    const cabin = await seedCabin();
    const connected = await jsonRequest(
      'PUT',
      '/api/admin/channels/avito',
      { clientId: account.clientId, clientSecret: account.clientSecret, userId: account.userId },
      { cookie },
    );
    expect(connected.status).toBe(200);
    const linked = await jsonRequest(
      'PUT',
      `/api/admin/cabins/${cabin.id}/channels`,
      { avitoItemId: account.items[0] },
      { cookie },
    );
    expect(linked.status).toBe(200);
    const id = await booking(cookie, cabin.id, day(0), day(3));
    const push = () => runSchedule(env as unknown as Bindings, { push: true, pull: false, upkeep: false });
    await push();
    expect(await pushedBusy(account.items[0]!)).toEqual([{ date_start: day(0), date_end: day(3), type: 'manual' }]);
    // The guest turned back on the day they came: every night is free again.
    await jsonOf<Stay>(await mark(cookie, id, { departed: true }), 200);
    await push();
    expect(await pushedBusy(account.items[0]!)).toEqual([]);
  });
});

describe('tasks: GET, POST and PUT /api/admin/tasks', () => {
  it('should keep a departure’s cleaning with its booking: gone when it is cancelled, ticked «Убрано» off «Шахматка»', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'Бриз' });
    const id = await booking(cookie, cabin.id, day(1), day(3));
    const gone = await booking(cookie, cabin.id, day(5), day(7));
    const listed = await jsonOf<Tasks>(
      await send('GET', `/api/admin/tasks?from=${day(0)}&to=${day(10)}&cabinId=${cabin.id}`, { cookie }),
      200,
    );
    expect(listed.map((t) => [t.due, t.bookingId, t.kind])).toEqual([
      [day(3), id, 'cleaning'],
      [day(7), gone, 'cleaning'],
    ]);
    // Listing again writes nothing new.
    await expectNoChange(async () =>
      send('GET', `/api/admin/tasks?from=${day(0)}&to=${day(10)}&cabinId=${cabin.id}`, { cookie }),
    );
    expect((await jsonRequest('PUT', `/api/admin/bookings/${gone}`, { status: 'cancelled' }, { cookie })).status).toBe(
      200,
    );
    const after = await jsonOf<Tasks>(
      await send('GET', `/api/admin/tasks?from=${day(0)}&to=${day(10)}`, { cookie }),
      200,
    );
    expect(after.map((t) => t.bookingId)).toEqual([id]);
    const chart = async () =>
      (await jsonOf<Occupancy>(await send('GET', `/api/admin/occupancy?from=${day(0)}&days=10`, { cookie }), 200))
        .cabins[0]!.cleaning;
    expect(await chart()).toEqual([day(3)]);
    const done = await jsonOf<Task>(
      await jsonRequest('PUT', `/api/admin/tasks/${after[0]!.id}`, { done: true, note: 'Бельё сменили' }, { cookie }),
      200,
    );
    expect(done).toMatchObject({ done: true, note: 'Бельё сменили', doneAt: expect.any(String) });
    expect(await chart()).toEqual([]);
    // Unticked, it is open again.
    await jsonOf<Task>(await jsonRequest('PUT', `/api/admin/tasks/${done.id}`, { done: false }, { cookie }), 200);
    expect(await chart()).toEqual([day(3)]);
  });

  it('should add a task the owner writes, show it in the day and mark a cleaning on «Шахматка»', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'Бриз' });
    const repair = await jsonOf<Task>(
      await jsonRequest(
        'POST',
        '/api/admin/tasks',
        { cabinId: cabin.id, due: day(0), kind: 'repair', note: 'Кран на кухне' },
        { cookie },
      ),
      201,
    );
    expect(repair).toMatchObject({ cabinName: 'Бриз', due: day(0), kind: 'repair', done: false, bookingId: null });
    await jsonOf<Task>(
      await jsonRequest('POST', '/api/admin/tasks', { cabinId: cabin.id, due: day(1), kind: 'cleaning' }, { cookie }),
      201,
    );
    const answer = await jsonOf<Today>(await today(cookie), 200);
    expect(answer.tasks.map((t) => [t.kind, t.due, t.note])).toEqual([
      ['repair', day(0), 'Кран на кухне'],
      ['cleaning', day(1), ''],
    ]);
    const chart = await jsonOf<Occupancy>(
      await send('GET', `/api/admin/occupancy?from=${day(0)}&days=5`, { cookie }),
      200,
    );
    expect(chart.cabins[0]!.cleaning).toEqual([day(1)]);
  });

  it.each([
    ['no cabin', { due: '2027-01-01', kind: 'other' }, MSG.taskCabinInvalid],
    ['a kind of its own', { cabinId: 1, due: '2027-01-01', kind: 'laundry' }, MSG.taskKindInvalid],
    ['a day that is not one', { cabinId: 1, due: '2027-02-30', kind: 'other' }, MSG.dateInvalid],
    ['a note too long', { cabinId: 1, due: '2027-01-01', kind: 'other', note: 'я'.repeat(501) }, MSG.tooLong],
  ])('should refuse a new task with %s (400 in Russian, nothing stored)', async (_, body, message) => {
    const cookie = await login();
    await seedCabin();
    await expectNoChange(async () =>
      expectError(await jsonRequest('POST', '/api/admin/tasks', body, { cookie }), 400, message),
    );
  });

  it('should answer 404 for a task of a cabin or a task that does not exist, and refuse a bad period', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('POST', '/api/admin/tasks', { cabinId: 999, due: day(0), kind: 'other' }, { cookie }),
        404,
        MSG.cabinNotFound,
      );
      await expectError(
        await jsonRequest('PUT', '/api/admin/tasks/999', { done: true }, { cookie }),
        404,
        MSG.taskNotFound,
      );
      await expectError(
        await jsonRequest('PUT', '/api/admin/tasks/1', { done: 'да' }, { cookie }),
        400,
        MSG.taskDoneInvalid,
      );
      await expectError(
        await send('GET', `/api/admin/tasks?from=${day(5)}&to=${day(1)}`, { cookie }),
        400,
        MSG.datesOrder,
      );
      await expectError(
        await send('GET', `/api/admin/tasks?from=${day(0)}&to=${day(62)}`, { cookie }),
        400,
        MSG.todayRangeTooLong,
      );
      await expectError(await send('GET', '/api/admin/tasks?cabinId=abc', { cookie }), 400, MSG.badId);
    });
  });
});
