import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { addDays } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { smsSegments, type SmsStatus } from '../../schema/sms.ts';
import type { OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../../worker/env.ts';
import { sendGuestSms } from '../../worker/notify/guest-sms.ts';
import { bookingsOfMessages, claim } from '../../worker/queries/outbox.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import type { SmsRequest, SmsSent } from '../../stand-ins/sms-api.ts';
import {
  callWith,
  expectError,
  expectNoChange,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
} from './helpers.ts';

/**
 * SMS to guests who tied no messenger (docs/operations.md «SMS for guests»), on both runtimes:
 * the owner connects an SMS.ru account in «Настройки» (its key checked first), and the schedule's
 * reminder before arrival goes by SMS, through the outbox, to a guest who left a phone and tied
 * no messenger, never past the month's cap. SMS.ru is the stand-in of the global setup
 * (stand-ins/sms-api.ts), over real HTTP; each test has an account (api_id) of its own.
 */
const smsApi = inject('smsApiUrl');
const SITE = 'https://kaspiy.example';
const BINDINGS: Partial<Bindings> = { SMS_API_URL: smsApi, SITE_URL: SITE };
const call = callWith(BINDINGS);
const json = jsonOf;

const newKey = (word = 'key') => `${word}-${crypto.randomUUID().toUpperCase()}`;
const standIn = async <T>(path: string, init?: RequestInit): Promise<T> =>
  (await (await fetch(`${smsApi}${path}`, init)).json()) as T;
const sentBy = (key: string) => standIn<SmsSent[]>(`/_stand-in/sent?api_id=${encodeURIComponent(key)}`);
const requestsOf = (key: string) => standIn<SmsRequest[]>(`/_stand-in/requests?api_id=${encodeURIComponent(key)}`);
const account = (key: string, set: { balance?: number; fail?: number; delayMs?: number }) =>
  standIn(`/_stand-in/account`, { method: 'POST', body: JSON.stringify({ api_id: key, ...set }) });

const smsOf = async (res: Response, expected = 200) => (await json<{ sms: SmsStatus }>(res, expected)).sms;

async function connect(cookie: string, key = newKey(), extra: Record<string, unknown> = {}) {
  const sms = await smsOf(
    await call('PUT', '/api/admin/messengers', {
      cookie,
      body: { sms: { provider: 'smsru', key, monthlyCapRub: 500, ...extra } },
    }),
  );
  expect(sms).toMatchObject({ connected: true, provider: 'smsru', last4: key.slice(-4) });
  return key;
}

const smsRows = (bookingId: number) =>
  env.DB.prepare(
    "SELECT id, kind, recipient, text, sent_at, given_up_at, last_error, attempts FROM outbox WHERE booking_id = ? AND channel = 'sms' ORDER BY id",
  )
    .bind(bookingId)
    .all<{
      id: number;
      kind: string;
      recipient: string;
      text: string;
      sent_at: number | null;
      given_up_at: number | null;
      last_error: string | null;
      attempts: number;
    }>()
    .then((r) => r.results);

let guests = 0;
/** A guest's request for a cabin of its own, confirmed by the owner: its id, page token, dates. */
async function confirmedStay(cookie: string, overrides: Record<string, unknown> = {}) {
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  const { id } = await json<{ id: number }>(
    await call('POST', '/api/bookings', {
      body: validBooking(cabin.id, { name: 'Мадина Гасанова', email: `sms${++guests}@example.ru`, ...overrides }),
    }),
    201,
  );
  const stay = await json<{ checkIn: string; checkOut: string }>(
    await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
    200,
  );
  const token = (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
    .bind(id)
    .first<{ t: string }>())!.t;
  return { id, token, cabinId: cabin.id, ...stay };
}

/** The schedule's run two days before `checkIn`, Moscow morning: the reminders are queued and sent. */
async function scheduleBefore(checkIn: string, at = '09:00') {
  vi.setSystemTime(new Date(`${addDays(checkIn, -2)}T${at}:00Z`));
  await runSchedule({ ...env, ...BINDINGS } as Bindings, { push: true, pull: false, upkeep: true });
}

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('the owner connects SMS.ru', () => {
  it('should be off by default, and send nothing to a guest with a phone', async () => {
    const cookie = await login();
    expect(await smsOf(await call('GET', '/api/admin/messengers', { cookie }))).toEqual({
      connected: false,
      last4: null,
    });
    const stay = await confirmedStay(cookie);
    await scheduleBefore(stay.checkIn);
    expect(await smsRows(stay.id)).toEqual([]);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM threads WHERE channel = 'sms'").first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it('should check the key with SMS.ru before keeping it, and show the balance, the price per part and the senders, never the key', async () => {
    const cookie = await login();
    const key = newKey();
    const res = await call('PUT', '/api/admin/messengers', {
      cookie,
      body: { sms: { provider: 'smsru', key, sender: 'Kaspiy', monthlyCapRub: 300 } },
    });
    const text = await res.clone().text();
    expect(text).not.toContain(key);
    const sms = await smsOf(res);
    expect(sms).toMatchObject({
      connected: true,
      provider: 'smsru',
      last4: key.slice(-4),
      sender: 'Kaspiy',
      monthlyCapRub: 300,
      balanceRub: 100,
      senders: ['Kaspiy', 'SMS.ru'],
      price: { perPartRub: 1.5 },
      month: { spentRub: 0, reservedRub: 0 },
    });
    expect(sms.price!.reminderParts).toBeGreaterThanOrEqual(2);
    expect(sms.price!.reminderRub).toBe(sms.price!.reminderParts * 1.5);
    expect(sms.error).toBeUndefined();
    // Asked with json=1 and the key; the price asked is not a send.
    const asked = await requestsOf(key);
    expect(asked.map((r) => r.method).sort()).toEqual(['my/balance', 'my/senders', 'sms/cost']);
    expect(asked.every((r) => r.fields.api_id === key && r.fields.json === '1')).toBe(true);
    expect(await sentBy(key)).toEqual([]);
    const again = await call('GET', '/api/admin/messengers', { cookie });
    expect(await again.clone().text()).not.toContain(key);
    expect(await smsOf(again)).toMatchObject({ last4: key.slice(-4), balanceRub: 100 });
    // The cap alone changes without the key typed again.
    expect(
      await smsOf(
        await call('PUT', '/api/admin/messengers', { cookie, body: { sms: { provider: 'smsru', monthlyCapRub: 50 } } }),
      ),
    ).toMatchObject({ last4: key.slice(-4), monthlyCapRub: 50 });
    // Off: the key is forgotten.
    expect(await smsOf(await call('PUT', '/api/admin/messengers', { cookie, body: { sms: null } }))).toEqual({
      connected: false,
      last4: null,
    });
  });

  it('should refuse a key SMS.ru refuses, a gateway that does not answer, a sender it does not allow and SMSC.ru, with the reason, keeping nothing', async () => {
    const cookie = await login();
    const put = (sms: Record<string, unknown>) =>
      call('PUT', '/api/admin/messengers', {
        cookie,
        body: { sms: { provider: 'smsru', monthlyCapRub: 100, ...sms } },
      });
    await expectNoChange(async () => {
      await expectError(await put({ key: newKey('rejected') }), 400, MSG.smsKeyRejected);
      const down = newKey();
      await account(down, { fail: 5 });
      await expectError(await put({ key: down }), 502, MSG.smsUnavailable);
      await expectError(await put({ key: newKey(), sender: 'Nobody' }), 400, MSG.smsSenderNotAllowed);
      await expectError(await put({ key: newKey(), provider: 'smsc' }), 400, MSG.smsProviderNotYet);
      await expectError(await put({}), 400, MSG.smsKeyRequired);
      await expectError(await put({ key: 'ключ с пробелами' }), 400, MSG.smsKeyInvalid);
      await expectError(await put({ key: newKey(), monthlyCapRub: -1 }), 400, MSG.smsCapInvalid);
    });
    expect(await smsOf(await call('GET', '/api/admin/messengers', { cookie }))).toEqual({
      connected: false,
      last4: null,
    });
  });
});

describe('the reminder by SMS', () => {
  it('should go to a guest with a phone and no messenger only, as a short text with the page’s link and nothing secret, and show in the thread', async () => {
    const cookie = await login();
    const plain = await confirmedStay(cookie, { phone: '8 (928) 555-12-34' });
    // The cabin's arrival instructions (a door code, the Wi-Fi) stay on the guest's page.
    await env.DB.prepare('INSERT INTO cabin_instructions (cabin_id, text) VALUES (?, ?)')
      .bind(plain.cabinId, 'Код двери 4821, Wi-Fi: Kaspiy / parol-4821')
      .run();
    const linked = await confirmedStay(cookie, {
      phone: '+7 928 555-00-01',
      checkIn: plain.checkIn,
      checkOut: plain.checkOut,
    });
    await env.DB.prepare(
      "INSERT INTO guest_chats (booking_id, chat_id, consent, linked_at) VALUES (?, '7000001', 'да', 1)",
    )
      .bind(linked.id)
      .run();
    // A stay from another platform may carry no phone.
    const noPhone = await confirmedStay(cookie, { checkIn: plain.checkIn, checkOut: plain.checkOut });
    await env.DB.prepare("UPDATE bookings SET phone = '' WHERE id = ?").bind(noPhone.id).run();
    // Turned on after the stays were confirmed: no confirmation by SMS, the reminder alone.
    const key = await connect(cookie);

    await scheduleBefore(plain.checkIn);
    const sent = await sentBy(key);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('79285551234');
    const text = sent[0]!.msg;
    expect(text).toBe(
      `Скоро заезд: «Домик у моря», ${(await import('../../schema/format.ts')).formatStayDates(plain.checkIn, plain.checkOut)}. Всё о брони: ${SITE}/b/${plain.token}`,
    );
    for (const secret of ['4821', 'Wi-Fi', 'parol', 'Мадина', '5000', 'Код']) expect(text).not.toContain(secret);
    expect(smsSegments(text).parts).toBeLessThanOrEqual(3);
    // The request was SMS.ru's: the key, the number, the text, json=1.
    const send = (await requestsOf(key)).find((r) => r.method === 'sms/send')!;
    expect(send.fields).toMatchObject({ api_id: key, to: '79285551234', msg: text, json: '1' });

    expect(await smsRows(plain.id)).toMatchObject([
      { kind: 'reminder', recipient: '79285551234', sent_at: expect.any(Number) },
    ]);
    expect(await smsRows(linked.id)).toEqual([]);
    expect(await smsRows(noPhone.id)).toEqual([]);
    const thread = await env.DB.prepare(
      "SELECT m.channel, m.direction, m.kind, m.status, m.text FROM messages m JOIN threads t ON t.id = m.thread_id WHERE t.booking_id = ? AND t.channel = 'sms'",
    )
      .bind(plain.id)
      .all();
    expect(thread.results).toEqual([{ channel: 'sms', direction: 'out', kind: 'reminder', status: 'sent', text }]);
    // «Сообщения» lists it as the booking's SMS thread.
    const owner = await login();
    const threads = await json<{ id: number; bookingId?: number; channel: string }[]>(
      await call('GET', '/api/admin/threads?channel=sms', { cookie: owner }),
      200,
    );
    expect(threads).toMatchObject([{ bookingId: plain.id, channel: 'sms' }]);
    const shown = await json<{ messages: { direction: string; text: string; status: string }[] }>(
      await call('GET', `/api/admin/threads/${threads[0]!.id}`, { cookie: owner }),
      200,
    );
    expect(shown.messages).toMatchObject([{ direction: 'out', text, status: 'sent' }]);
    // The money: one reminder at 1.50 ₽ a part, settled.
    const parts = smsSegments(text).parts;
    expect(await smsOf(await call('GET', '/api/admin/messengers', { cookie: owner }))).toMatchObject({
      month: { spentRub: parts * 1.5, reservedRub: 0 },
      balanceRub: 100 - parts * 1.5,
    });
    // Once: the next run sends nothing more.
    await scheduleBefore(plain.checkIn, '09:20');
    expect(await sentBy(key)).toHaveLength(1);
  });

  it('should keep the reminder when SMS.ru has no money, show why in «Настройки», and send it after the top-up', async () => {
    const cookie = await login();
    const stay = await confirmedStay(cookie);
    const key = await connect(cookie);
    await account(key, { balance: 0 });
    await scheduleBefore(stay.checkIn);
    expect(await sentBy(key)).toEqual([]);
    expect(await smsRows(stay.id)).toMatchObject([{ sent_at: null, given_up_at: null, last_error: MSG.smsNoMoney }]);
    expect(await smsOf(await call('GET', '/api/admin/messengers', { cookie: await login() }))).toMatchObject({
      error: MSG.smsNoMoney,
      month: { spentRub: 0, reservedRub: 0 },
    });
    const spends = await env.DB.prepare('SELECT status FROM sms_spends').all<{ status: string }>();
    expect(spends.results).toEqual([{ status: 'released' }]);
    // The thread shows it waiting, with the cause.
    expect(await env.DB.prepare("SELECT status, error FROM messages WHERE channel = 'sms'").first()).toEqual({
      status: 'queued',
      error: MSG.smsNoMoney,
    });

    // Tried again after the pause, not before.
    await account(key, { balance: 50 });
    await scheduleBefore(stay.checkIn, '09:00');
    expect(await sentBy(key)).toEqual([]);
    await scheduleBefore(stay.checkIn, '09:05');
    expect(await sentBy(key)).toHaveLength(1);
    expect(await smsRows(stay.id)).toMatchObject([{ sent_at: expect.any(Number), last_error: null }]);
    const after = await smsOf(await call('GET', '/api/admin/messengers', { cookie: await login() }));
    expect(after.error).toBeUndefined();
  });

  it('should retry after SMS.ru fails over HTTP, and give up a reminder whose guest tied a messenger meanwhile', async () => {
    const cookie = await login();
    const stay = await confirmedStay(cookie);
    const key = await connect(cookie);
    await account(key, { fail: 1 });
    await scheduleBefore(stay.checkIn);
    expect(await smsRows(stay.id)).toMatchObject([{ sent_at: null, last_error: MSG.smsUnavailable }]);
    expect((await smsOf(await call('GET', '/api/admin/messengers', { cookie: await login() }))).error).toBe(
      MSG.smsUnavailable,
    );
    await env.DB.prepare(
      "INSERT INTO guest_chats (booking_id, chat_id, consent, linked_at) VALUES (?, '7000002', 'да', 1)",
    )
      .bind(stay.id)
      .run();
    await scheduleBefore(stay.checkIn, '09:05');
    expect(await sentBy(key)).toEqual([]);
    expect(await smsRows(stay.id)).toMatchObject([
      { given_up_at: expect.any(Number), last_error: MSG.smsHasMessenger },
    ]);
  });
});

describe('the confirmation by SMS', () => {
  it('should send the page’s link when the owner confirms, to a guest with no messenger only', async () => {
    const cookie = await login();
    const key = await connect(cookie);
    const request = async (phone: string) => {
      const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
      const { id } = await json<{ id: number }>(
        await call('POST', '/api/bookings', { body: validBooking(cabin.id, { phone, email: '' }) }),
        201,
      );
      const token = (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
        .bind(id)
        .first<{ t: string }>())!.t;
      return { id, token };
    };
    const plain = await request('+7 928 555-12-34');
    const linked = await request('+7 928 555-00-02');
    await env.DB.prepare(
      "INSERT INTO guest_chats (booking_id, chat_id, consent, linked_at) VALUES (?, '7000003', 'да', 1)",
    )
      .bind(linked.id)
      .run();
    for (const b of [plain, linked])
      await json(await call('PUT', `/api/admin/bookings/${b.id}`, { cookie, body: { status: 'confirmed' } }), 200);
    const sent = await sentBy(key);
    expect(sent.map((m) => m.to)).toEqual(['79285551234']);
    expect(sent[0]!.msg).toMatch(/^Бронь подтверждена: «Домик у моря», /);
    expect(sent[0]!.msg).toContain(`Всё о брони: ${SITE}/b/${plain.token}`);
    expect(await smsRows(plain.id)).toMatchObject([{ kind: 'confirmation', sent_at: expect.any(Number) }]);
    expect(await smsRows(linked.id)).toEqual([]);
    // Once per booking: confirming again sends nothing more.
    await call('PUT', `/api/admin/bookings/${plain.id}`, { cookie, body: { status: 'confirmed' } });
    expect(await sentBy(key)).toHaveLength(1);
  });
});

describe('the monthly cap', () => {
  it('should never be passed, however many sends race for it', async () => {
    const cookie = await login();
    const key = newKey();
    const stays = [];
    for (let i = 0; i < 8; i++) stays.push(await confirmedStay(cookie));
    // Connected after the stays, so the price of one reminder is known: the cap takes three.
    const parts = smsSegments(
      (await import('../../schema/sms.ts')).smsGuestText(
        'reminder',
        { ...stays[0]!, cabinName: 'Домик у моря', guestToken: stays[0]!.token },
        SITE,
      ).text,
    ).parts;
    const price = parts * 1.5;
    await connect(cookie, key, { monthlyCapRub: Math.floor(price * 3 + price / 2) });
    // The schedule keeps the reminders but sends none yet: its own drain is left out here.
    vi.setSystemTime(new Date(`${addDays(stays[0]!.checkIn, -2)}T09:00:00Z`));
    await runSchedule({ ...env, ...BINDINGS } as Bindings, { push: false, pull: false, upkeep: true });
    const rows = (await env.DB.prepare("SELECT * FROM outbox WHERE channel = 'sms' ORDER BY id").all()).results.map(
      (r) => r as Record<string, unknown>,
    );
    expect(rows).toHaveLength(8);
    // Every send at once, each slowed by the gateway so that they overlap.
    await account(key, { delayMs: 150 });
    const stayOf = new Map(
      (
        await bookingsOfMessages(
          env,
          stays.map((s) => s.id),
        )
      ).map((b) => [b.id, b]),
    );
    const outboxRows: OutboxRow[] = rows.map((r) => ({
      id: r.id as number,
      channel: 'sms',
      subject: r.subject as string,
      text: r.text as string,
      attempts: r.attempts as number,
      nextAttemptAt: r.next_attempt_at as number,
      leaseUntil: null,
      lastError: null,
      createdAt: r.created_at as number,
      sentAt: null,
      givenUpAt: null,
      partsSent: 0,
      bookingId: r.booking_id as number,
      kind: r.kind as string,
      recipient: r.recipient as string,
      event: '',
    }));
    const outcomes = await Promise.all(
      outboxRows.map(async (row) => {
        expect(await claim(env, row.id, 60_000)).toBe(true);
        return sendGuestSms({ ...env, ...BINDINGS } as Bindings, row, stayOf.get(row.bookingId!));
      }),
    );
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'failed')).toHaveLength(5);
    expect(await sentBy(key)).toHaveLength(3);
    const budget = await env.DB.prepare('SELECT cap_kop, spent_kop, reserved_kop FROM sms_budget').first<{
      cap_kop: number;
      spent_kop: number;
      reserved_kop: number;
    }>();
    expect(budget!.spent_kop).toBe(Math.round(price * 100) * 3);
    expect(budget!.spent_kop).toBeLessThanOrEqual(budget!.cap_kop);
    expect(budget!.reserved_kop).toBe(0);
    const spends = await env.DB.prepare('SELECT status, count(*) AS n FROM sms_spends GROUP BY status').all();
    expect(spends.results).toEqual([{ status: 'spent', n: 3 }]);
    const waiting = await env.DB.prepare(
      "SELECT last_error FROM outbox WHERE channel = 'sms' AND sent_at IS NULL",
    ).all();
    expect(waiting.results).toEqual(Array(5).fill({ last_error: MSG.smsCapReached }));
    expect((await smsOf(await call('GET', '/api/admin/messengers', { cookie: await login() }))).error).toBe(
      MSG.smsCapReached,
    );
  });
});
