import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { BOOKING_THROTTLE } from '../../schema/bookings.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { parseFeed } from '../../worker/calendar/ical.ts';
import { forgetOldBookings } from '../../worker/queries/bookings.ts';
import { retentionCutoff } from '../../worker/scheduled.ts';
import {
  type Api,
  type Booked,
  expectError,
  expectNoChange,
  freshIp,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
} from './helpers.ts';

const day = (n: number) => addDays(todayInMoscow(), n);

beforeEach(resetDataWithAdmin);

/** A booking in «Заявки» (GET /api/admin/bookings), as the typed client knows it. */
type Row = InferResponseType<Api['admin']['bookings']['$get'], 200>[number];
/** The owner's decision on a booking (PUT /api/admin/bookings/:id). */
type Decided = InferResponseType<Api['admin']['bookings'][':id']['$put'], 200>;

const book = (body: Record<string, unknown>, ip = freshIp()) => jsonRequest('POST', '/api/bookings', body, { ip });
async function list(cookie: string): Promise<Row[]> {
  const res = await send('GET', '/api/admin/bookings', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
}
const decide = (cookie: string, id: number, status: string) =>
  jsonRequest('PUT', `/api/admin/bookings/${id}`, { status }, { cookie });
async function busyOf(cabinId: number) {
  return (
    (await (await send('GET', `/api/cabins/${cabinId}/availability`)).json()) as InferResponseType<
      Api['cabins'][':id']['availability']['$get'],
      200
    >
  ).busy;
}

describe('a booking request: POST /api/bookings', () => {
  it("should store it as «Новая» with the server's nights and total by season, and show it to the owner", async () => {
    const cabin = await seedCabin({ pricePerNight: 5000, maxGuests: 4 });
    const cookie = await login();
    // Two nights at the base price, then two in a season at 8 000 ₽.
    const seasons = [{ start: day(62), end: day(90), pricePerNight: 8000, minNights: 1 }];
    expect((await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons }, { cookie })).status).toBe(
      200,
    );
    const res = await book(
      validBooking(cabin.id, { checkIn: day(60), checkOut: day(64), guests: 4, channel: 'telegram', total: undefined }),
    );
    expect(res.status).toBe(201);
    const answer = (await res.json()) as Booked;
    // The guest's own page comes with every booking, a request too.
    expect(answer).toEqual({
      id: answer.id,
      nights: 4,
      total: 2 * 5000 + 2 * 8000,
      lines: [expect.objectContaining({ amount: 10000 }), expect.objectContaining({ amount: 16000 })],
      guestUrl: expect.stringMatching(/^\/b\/[0-9a-f]{36}$/),
    });
    const [row] = await list(cookie);
    expect(row).toMatchObject({
      id: answer.id,
      cabinId: cabin.id,
      cabinName: cabin.name,
      checkIn: day(60),
      checkOut: day(64),
      nights: 4,
      guests: 4,
      total: 26000,
      name: 'Анна',
      phone: '+7 928 555-12-34',
      email: 'anna@example.ru',
      comment: 'Приедем поздно вечером',
      channel: 'telegram',
      status: 'new',
    });
    // A request is not a booking: its nights stay free until the owner confirms it.
    expect(await busyOf(cabin.id)).toEqual([]);
  });

  it('should list the newest request first', async () => {
    const cabin = await seedCabin();
    const first = (await (await book(validBooking(cabin.id, { name: 'Первый' }))).json()) as Booked;
    const second = (await (await book(validBooking(cabin.id, { name: 'Второй' }))).json()) as Booked;
    expect((await list(await login())).map((r) => r.id)).toEqual([second.id, first.id]);
  });

  it.each([
    ['a check-in in the past', { checkIn: day(-1), checkOut: day(2) }, 400, MSG.bookingCheckInPast],
    ['a check-out before the check-in', { checkIn: day(10), checkOut: day(8) }, 400, MSG.dateRangeInvalid],
    ['the same day twice', { checkIn: day(10), checkOut: day(10) }, 400, MSG.dateRangeInvalid],
    ['a date that does not exist', { checkIn: '2027-02-29', checkOut: '2027-03-02' }, 400, MSG.dateInvalid],
    ['dates more than 18 months ahead', { checkIn: day(600), checkOut: day(603) }, 400, MSG.dateTooFar],
    ['more than 90 nights', { checkIn: day(10), checkOut: day(101) }, 400, MSG.bookingTooLong],
    ['more guests than the cabin takes', { guests: 5 }, 400, MSG.bookingTooManyGuests],
    ['no guests', { guests: 0 }, 400, MSG.bookingGuestsInvalid],
    ['no name', { name: '  ' }, 400, MSG.bookingNameRequired],
    ['a phone of letters', { phone: 'позвоните мне' }, 400, MSG.bookingPhoneInvalid],
    ['a phone too short', { phone: '555-12-34' }, 400, MSG.bookingPhoneInvalid],
    ['a bad e-mail', { email: 'anna@' }, 400, MSG.bookingEmailInvalid],
    ['no consent', { consent: false }, 400, MSG.consentRequired],
    ['an unknown channel', { channel: 'viber' }, 400, MSG.bookingChannelInvalid],
    ['a filled honeypot', { website: 'http://spam.example' }, 400, MSG.bookingHoneypot],
    ['a total of its own', { total: 1 }, 400, undefined],
  ])('should refuse %s and store nothing', async (_, patch, status, message) => {
    const cabin = await seedCabin({ maxGuests: 4 });
    await expectNoChange(async () => expectError(await book(validBooking(cabin.id, patch)), status, message));
  });

  it('should refuse a stay shorter than the minimum of its season, and a missing or hidden cabin', async () => {
    const cabin = await seedCabin();
    const hidden = await seedCabin({ active: false });
    const cookie = await login();
    const seasons = [{ start: day(50), end: day(80), pricePerNight: 9000, minNights: 4 }];
    expect(
      (await jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/seasons`, { seasons, minNights: 2 }, { cookie })).status,
    ).toBe(200);
    await expectNoChange(async () => {
      await expectError(
        await book(validBooking(cabin.id, { checkIn: day(60), checkOut: day(63) })),
        400,
        MSG.bookingTooShort,
      );
      await expectError(
        await book(validBooking(cabin.id, { checkIn: day(20), checkOut: day(21) })),
        400,
        MSG.bookingTooShort,
      );
      await expectError(await book(validBooking(hidden.id)), 404, MSG.cabinNotFound);
      await expectError(await book(validBooking(987654)), 404, MSG.cabinNotFound);
    });
    expect((await book(validBooking(cabin.id, { checkIn: day(60), checkOut: day(64) }))).status).toBe(201);
    expect((await book(validBooking(cabin.id, { checkIn: day(20), checkOut: day(22) }))).status).toBe(201);
  });

  it('should answer 409 for nights a block or a confirmed booking holds, and allow a stay ending the morning one begins', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    expect(
      (await jsonRequest('POST', `/api/admin/cabins/${cabin.id}/blocks`, { start: day(30), end: day(33) }, { cookie }))
        .status,
    ).toBe(201);
    await expectNoChange(async () =>
      expectError(await book(validBooking(cabin.id, { checkIn: day(32), checkOut: day(35) })), 409, MSG.bookingNotFree),
    );
    expect((await book(validBooking(cabin.id, { checkIn: day(27), checkOut: day(30) }))).status).toBe(201);
    expect((await book(validBooking(cabin.id, { checkIn: day(33), checkOut: day(36) }))).status).toBe(201);
  });

  it('should refuse more requests than the limit from one address with 429', async () => {
    const cabin = await seedCabin();
    const ip = freshIp();
    for (let i = 0; i < BOOKING_THROTTLE.max; i++) expect((await book(validBooking(cabin.id), ip)).status).toBe(201);
    await expectError(await book(validBooking(cabin.id), ip), 429, MSG.bookingThrottled);
    expect((await book(validBooking(cabin.id))).status).toBe(201);
  });
});

describe("the owner's decisions: PUT /api/admin/bookings/:id", () => {
  it('should keep 100 concurrent requests for the same nights, and let exactly one of them be confirmed', async () => {
    const cabin = await seedCabin();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => book(validBooking(cabin.id, { name: `Гость ${i}` }))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(201));
    const cookie = await login();
    const rows = await list(cookie);
    expect(rows.length).toBe(100);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['new']));
    const decisions = await Promise.all(rows.map((r) => decide(cookie, r.id, 'confirmed')));
    const statuses = decisions.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBe(1);
    expect(statuses.filter((s) => s === 409).length).toBe(99);
    const refused = decisions.find((r) => r.status === 409)!;
    await expectError(refused, 409, MSG.bookingNotFree);
    const after = await list(cookie);
    expect(after.filter((r) => r.status === 'confirmed').length).toBe(1);
    const { checkIn, checkOut } = validBooking(cabin.id);
    expect(await busyOf(cabin.id)).toEqual([{ start: checkIn, end: checkOut }]);
    // Two hundred requests, and what they decide, not how fast: beside the whole suite on two
    // cores they once took past the contract tests' 20 s.
  }, 60_000);

  it('should make confirmed nights busy in the export without the guest, and free them on cancel', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const { id } = (await (await book(validBooking(cabin.id, { name: 'Секретный Гость' }))).json()) as Booked;
    const confirmed = await decide(cookie, id, 'confirmed');
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as Decided).status).toBe('confirmed');
    const { checkIn, checkOut } = validBooking(cabin.id);
    const calendar = (await (
      await send('GET', `/api/admin/cabins/${cabin.id}/calendar`, { cookie })
    ).json()) as InferResponseType<Api['admin']['cabins'][':id']['calendar']['$get'], 200>;
    expect(calendar.busy).toEqual([
      expect.objectContaining({ start: checkIn, source: 'booking', label: 'Секретный Гость' }),
    ]);
    const ics = await (await send('GET', new URL(calendar.exportUrl).pathname)).text();
    expect(ics).not.toContain('Секретный');
    expect(parseFeed(ics, day(0), day(400)).map(({ start, end }) => ({ start, end }))).toEqual([
      { start: checkIn, end: checkOut },
    ]);
    // A request for those nights now meets a 409.
    await expectError(await book(validBooking(cabin.id)), 409, MSG.bookingNotFree);
    expect((await decide(cookie, id, 'cancelled')).status).toBe(200);
    expect(await busyOf(cabin.id)).toEqual([]);
  });

  it('should allow only sensible moves between statuses', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const { id } = (await (await book(validBooking(cabin.id))).json()) as Booked;
    await expectError(await decide(cookie, id, 'cancelled'), 409, MSG.bookingTransition);
    await expectError(await decide(cookie, id, 'new'), 409, MSG.bookingTransition);
    await expectError(await decide(cookie, id, 'maybe'), 400, MSG.bookingStatusInvalid);
    expect((await decide(cookie, id, 'declined')).status).toBe(200);
    await expectError(await decide(cookie, id, 'declined'), 409, MSG.bookingTransition);
    // A declined request can still be confirmed if the owner changes their mind.
    expect((await decide(cookie, id, 'confirmed')).status).toBe(200);
    await expectError(await decide(cookie, 987654, 'confirmed'), 404, MSG.bookingNotFound);
  });

  it('should refuse to confirm nights a block took after the request came in', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const { id } = (await (await book(validBooking(cabin.id))).json()) as Booked;
    const { checkIn } = validBooking(cabin.id);
    expect(
      (
        await jsonRequest(
          'POST',
          `/api/admin/cabins/${cabin.id}/blocks`,
          { start: checkIn, end: addDays(checkIn, 1) },
          { cookie },
        )
      ).status,
    ).toBe(201);
    await expectError(await decide(cookie, id, 'confirmed'), 409, MSG.bookingNotFree);
    expect((await list(cookie))[0]!.status).toBe('new');
  });

  it("should delete a request with the guest's personal data", async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    const { id } = (await (await book(validBooking(cabin.id))).json()) as Booked;
    expect((await send('DELETE', `/api/admin/bookings/${id}`, { cookie })).status).toBe(200);
    expect(await list(cookie)).toEqual([]);
    await expectError(await send('DELETE', `/api/admin/bookings/${id}`, { cookie }), 404, MSG.bookingNotFound);
  });
});

describe('personal data past its retention', () => {
  it('should erase the name, phone, e-mail and comment of requests older than 3 years whose stay is over, and nothing else', async () => {
    const cabin = await seedCabin();
    const cookie = await login();
    for (const name of ['Старая', 'Старая, но впереди', 'Свежая'])
      expect((await book(validBooking(cabin.id, { name }))).status).toBe(201);
    const fourYearsAgo = new Date(Date.now() - 4 * 365 * 86_400_000).toISOString();
    await env.DB.prepare(
      "UPDATE bookings SET created_at = ?, check_in = '2022-07-01', check_out = '2022-07-05' WHERE name = 'Старая'",
    )
      .bind(fourYearsAgo)
      .run();
    await env.DB.prepare("UPDATE bookings SET created_at = ? WHERE name = 'Старая, но впереди'")
      .bind(fourYearsAgo)
      .run();
    expect(await forgetOldBookings(env, retentionCutoff(3), todayInMoscow())).toBe(1);
    const rows = await list(cookie);
    const old = rows.find((r) => r.checkIn === '2022-07-01')!;
    expect(old).toMatchObject({ name: '', phone: '', email: '', comment: '', checkOut: '2022-07-05', status: 'new' });
    expect(
      rows
        .filter((r) => r.phone === '+7 928 555-12-34')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Свежая', 'Старая, но впереди']);
    // Run again: nothing more to erase.
    expect(await forgetOldBookings(env, retentionCutoff(3), todayInMoscow())).toBe(0);
    // A period of 5 years keeps a request of 4 years ago.
    await env.DB.prepare("UPDATE bookings SET phone = '+7 900 000-00-00' WHERE check_in = '2022-07-01'").run();
    expect(await forgetOldBookings(env, retentionCutoff(5), todayInMoscow())).toBe(0);
  });
});
