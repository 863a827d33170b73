import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { REVIEW_THROTTLE } from '../../schema/constants.ts';
import { addDays, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { formatDate } from '../../schema/format.ts';
import { DEFAULT_MESSAGES } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../../worker/env.ts';
import { enqueue } from '../../worker/queries/outbox.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  expectError,
  expectNoChange,
  freshIp,
  login,
  resetDataWithAdmin,
  seedCabin,
  validBooking,
  validReview,
  callWith,
  jsonOf,
} from './helpers.ts';
import type { GuestMessageView } from '../../worker/routes/guest-messages.ts';
import { mailApi, mailsTo, standInMailer } from './mail-stand-in.ts';

/**
 * The messages that go to a guest by themselves and the reviews of verified stays (see
 * docs/api.md «The guest's page and messages»), on both runtimes. The app runs with the runtime's
 * own bindings plus e-mail through the HTTP mail API (the port the Cloudflare entry fills from
 * MAIL_API_KEY, and the Node server when SMTP_URL is absent) pointed at the stand-in on 127.0.0.1
 * (stand-ins/mail-api.ts), and SITE_URL for the links. SMTP: test/node-server/guest-mail.test.ts.
 */
const yk = inject('yookassa');
const SITE = 'https://kaspiy.example';
const MAIL: Partial<Bindings> = {
  MAILER: standInMailer(),
  SITE_URL: SITE,
};
const bindings = () => ({ ...env, ...MAIL }) as Bindings;
const day = (n: number) => addDays(todayInMoscow(), n);

const call = callWith(MAIL);
const json = jsonOf;

/** The stand-in's own controls: what it accepted (for one address), and an outage. */
const outage = async (down: boolean) =>
  expect(
    (
      await fetch(`${mailApi}/_stand-in/outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ down }),
      })
    ).status,
  ).toBe(200);

/** The subjects of what one guest was sent, in order. */
const subjectsTo = async (to: string) => (await mailsTo(to)).map((m) => m.subject);
const REMINDER = /^Скоро заезд/;
const REVIEW = /^Как вам отдых/;

let guests = 0;
/** An address of this test alone: the stand-in keeps the mail of the whole run. */
const guestEmail = () => `guest${++guests}.${Math.random().toString(36).slice(2, 8)}@example.ru`;

type Message = GuestMessageView;
const messagesOf = async (cookie: string, id: number) =>
  json<Message[]>(await call('GET', `/api/admin/bookings/${id}/messages`, { cookie }), 200);
const tokenOf = async (id: number) =>
  (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?').bind(id).first<{ t: string }>())!.t;

/** A request as a visitor sends it, then confirmed by the owner: the owner's answer. */
async function confirmedStay(cookie: string, overrides: Record<string, unknown> = {}) {
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  const email = guestEmail();
  const { id } = await json<{ id: number }>(
    await call('POST', '/api/bookings', {
      body: validBooking(cabin.id, { name: 'Мадина Гасанова', email, ...overrides }),
    }),
    201,
  );
  const answer = await json<{ status: string; confirmationMail: string; checkIn: IsoDate; checkOut: IsoDate }>(
    await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
    200,
  );
  return { id, email, answer, token: await tokenOf(id) };
}
const cancel = async (cookie: string, id: number) =>
  json(await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'cancelled' } }), 200);

/** Moves the clock to noon in Moscow of `date` (vi.setSystemTime moves the server's clock too, on both runtimes). */
const clockAt = (date: IsoDate) => vi.setSystemTime(new Date(`${date}T09:00:00Z`));
const minutesLater = (n: number) => vi.setSystemTime(Date.now() + n * 60_000);
/** The schedule's run that has the 15-minute upkeep in it (reminders and review requests queued) and the drain. */
const schedule = () => runSchedule(bindings(), { push: true, pull: false, upkeep: true });

beforeEach(resetDataWithAdmin);
afterEach(async () => {
  vi.useRealTimers();
  await outage(false);
});

describe('the confirmation e-mail', () => {
  it('should e-mail the guest the owner’s own words with the link to the guest’s page when the owner confirms, and list it in the booking’s messages', async () => {
    const cookie = await login();
    const messages = {
      ...DEFAULT_MESSAGES,
      confirmation: {
        enabled: true,
        subject: 'Ждём вас в «{домик}»',
        body: '{имя}, всё готово: {заезд} — {выезд}.\nСтраница брони: {ссылка}',
      },
    };
    await json(await call('PUT', '/api/settings', { cookie, body: { messages } }), 200);

    const { id, email, answer, token } = await confirmedStay(cookie);
    expect(answer).toMatchObject({ status: 'confirmed', confirmationMail: 'sent' });
    const mails = await mailsTo(email);
    expect(mails).toEqual([
      {
        authorization: 'Bearer test-mail-key',
        // Every try of this message carries the same name, so the mail API sends it once.
        idempotencyKey: expect.stringMatching(/^kaspiy\.example\/outbox\/\d+\/[0-9a-f]{16}$/),
        from: 'Каспий <site@kaspiy.example>',
        to: [email],
        subject: 'Ждём вас в «Домик у моря»',
        text: `Мадина, всё готово: ${formatDate(answer.checkIn)} — ${formatDate(answer.checkOut)}.\nСтраница брони: ${SITE}/b/${token}`,
      },
    ]);

    const [message, ...more] = await messagesOf(cookie, id);
    expect(more).toEqual([]);
    expect(message).toEqual({
      kind: 'confirmation',
      recipient: email,
      subject: mails[0]!.subject,
      text: mails[0]!.text,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      givenUpAt: null,
    });
    // Sent once: «Отправить снова» has nothing to do.
    await expectError(
      await call('POST', `/api/admin/bookings/${id}/messages/confirmation/retry`, { cookie }),
      409,
      MSG.messageAlreadySent,
    );
  });

  it('should send nothing to a guest who left no e-mail or when the owner switched the confirmation off, and show a booking’s messages to the owner alone', async () => {
    const cookie = await login();
    const { id, answer } = await confirmedStay(cookie, { email: '' });
    expect(answer.confirmationMail).toBe('');
    expect(await messagesOf(cookie, id)).toEqual([]);

    await json(
      await call('PUT', '/api/settings', {
        cookie,
        body: { messages: { ...DEFAULT_MESSAGES, confirmation: { ...DEFAULT_MESSAGES.confirmation, enabled: false } } },
      }),
      200,
    );
    const off = await confirmedStay(cookie);
    expect(off.answer.confirmationMail).toBe('');
    expect(await mailsTo(off.email)).toEqual([]);
    expect(await messagesOf(cookie, off.id)).toEqual([]);

    await expectError(await call('GET', `/api/admin/bookings/${id}/messages`), 401);
    await expectError(await call('GET', '/api/admin/bookings/999999/messages', { cookie }), 404, MSG.bookingNotFound);
    await expectError(
      await call('POST', `/api/admin/bookings/${id}/messages/confirmation/retry`, { cookie }),
      404,
      MSG.messageNotFound,
    );
    await expectError(
      await call('POST', `/api/admin/bookings/${id}/messages/welcome/retry`, { cookie }),
      400,
      MSG.messageNotFound,
    );
  });

  it('should confirm the booking while the mail server is down, show why the e-mail did not go, and send it once the schedule runs with the server back', async () => {
    const cookie = await login();
    const cabin = await seedCabin({ name: 'Домик у моря' });
    const email = guestEmail();
    const { id } = await json<{ id: number }>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { email }) }),
      201,
    );
    await outage(true);

    const answer = await json(
      await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
      200,
    );
    expect(answer).toMatchObject({ status: 'confirmed', confirmationMail: 'failed' });
    // Confirmed for real: its nights are busy for the next visitor.
    const { busy } = await json<{ busy: { start: string; end: string }[] }>(
      await call('GET', `/api/cabins/${cabin.id}/availability`),
      200,
    );
    expect(busy).toEqual([{ start: answer.checkIn, end: answer.checkOut }]);
    const [failed] = await messagesOf(cookie, id);
    expect(failed).toMatchObject({
      kind: 'confirmation',
      sentAt: null,
      attempts: 1,
      lastError: expect.stringContaining('503'),
      givenUpAt: null,
    });
    expect(Date.parse(failed!.nextAttemptAt!)).toBeGreaterThan(Date.now());

    await outage(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    minutesLater(2);
    await schedule();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${SITE}/b/${await tokenOf(id)}`);
    expect((await messagesOf(cookie, id))[0]).toMatchObject({
      sentAt: expect.any(String),
      attempts: 2,
      lastError: null,
      nextAttemptAt: null,
    });
    minutesLater(5);
    await schedule();
    expect(await mailsTo(email)).toHaveLength(1);
  });
});

describe('the reminder before arrival and the review request after departure', () => {
  it('should send each on its day, once, to confirmed stays only, and give up one whose booking was cancelled after it was queued', async () => {
    let cookie = await login();
    // Booked the day before arrival: still reminded, at once.
    const soon = await confirmedStay(cookie, { checkIn: day(1), checkOut: day(2) });
    const stay = await confirmedStay(cookie);
    const cancelledBefore = await confirmedStay(cookie);
    const cancelledAfter = await confirmedStay(cookie);
    await cancel(cookie, cancelledBefore.id);
    const { checkIn, checkOut } = stay.answer;

    vi.useFakeTimers({ toFake: ['Date'] });
    await schedule();
    const [reminded, ...again] = (await mailsTo(soon.email)).filter((m) => REMINDER.test(m.subject));
    expect(again).toEqual([]);
    expect(reminded?.text).toContain(`${SITE}/b/${soon.token}`);
    expect(reminded?.text).not.toContain('#review');
    // Arrival is two months away: the confirmation only.
    const confirmationOnly = [expect.stringMatching(/^Бронирование подтверждено/)];
    expect(await subjectsTo(stay.email)).toEqual(confirmationOnly);

    clockAt(addDays(checkIn, -4));
    await schedule();
    expect(await subjectsTo(stay.email)).toEqual(confirmationOnly);

    // Three days before: queued for both confirmed stays, but the mail server is down.
    clockAt(addDays(checkIn, -3));
    await outage(true);
    await schedule();
    await outage(false);
    cookie = await login();
    await cancel(cookie, cancelledAfter.id);
    minutesLater(2);
    await schedule();

    expect((await mailsTo(stay.email)).filter((m) => REMINDER.test(m.subject))).toEqual([
      expect.objectContaining({
        subject: `Скоро заезд: Домик у моря, ${formatDate(checkIn)}`,
        text: expect.stringContaining(`${SITE}/b/${stay.token}`),
      }),
    ]);
    for (const gone of [cancelledBefore, cancelledAfter])
      expect((await subjectsTo(gone.email)).filter((s) => REMINDER.test(s))).toEqual([]);
    expect((await messagesOf(cookie, cancelledAfter.id)).find((m) => m.kind === 'reminder')).toMatchObject({
      sentAt: null,
      givenUpAt: expect.any(String),
      lastError: MSG.messageNotConfirmed,
      nextAttemptAt: null,
    });
    expect((await messagesOf(cookie, cancelledBefore.id)).map((m) => m.kind)).toEqual(['confirmation']);

    clockAt(addDays(checkIn, -1));
    await schedule();
    clockAt(checkOut);
    await schedule();
    expect(await subjectsTo(stay.email)).toEqual([...confirmationOnly, expect.stringMatching(REMINDER)]);

    clockAt(addDays(checkOut, 1));
    await schedule();
    await schedule();
    expect((await mailsTo(stay.email)).filter((m) => REVIEW.test(m.subject))).toEqual([
      expect.objectContaining({
        subject: 'Как вам отдых в «Домик у моря»?',
        text: expect.stringContaining(`${SITE}/b/${stay.token}#review`),
      }),
    ]);
    for (const gone of [cancelledBefore, cancelledAfter])
      expect((await subjectsTo(gone.email)).filter((s) => REVIEW.test(s))).toEqual([]);
    cookie = await login();
    expect((await messagesOf(cookie, stay.id)).map((m) => [m.kind, m.sentAt !== null])).toEqual([
      ['confirmation', true],
      ['reminder', true],
      ['review', true],
    ]);
  });
});

describe('reviews of verified stays: POST /api/reviews with stayToken', () => {
  it('should take a review through the stay’s link after departure as «Гость проживал(а)», once, past the limit per address, and only approved is it public', async () => {
    const cookie = await login();
    const stay = await confirmedStay(cookie);
    const raced = await confirmedStay(cookie);
    const cancelled = await confirmedStay(cookie);
    const late = await confirmedStay(cookie);
    await cancel(cookie, cancelled.id);
    const review = (token: string, ip = freshIp()) =>
      call('POST', '/api/reviews', { ip, body: validReview({ stayToken: token, name: 'Мадина' }) });

    await expectNoChange(async () => {
      await expectError(await review(stay.token), 400, MSG.stayReviewTooEarly);
      await expectError(await review('0'.repeat(36)), 400, MSG.stayTokenInvalid);
      await expectError(await review('not-a-token'), 400, MSG.stayTokenInvalid);
      await expectError(await review(cancelled.token), 400, MSG.stayTokenInvalid);
      await expectError(
        await call('POST', '/api/reviews', { body: validReview({ stayToken: stay.token, website: 'spam.example' }) }),
        400,
        MSG.honeypot,
      );
    });

    vi.useFakeTimers({ toFake: ['Date'] });
    clockAt(stay.answer.checkOut);
    // A family on one address: the others' reviews used up its limit, the guest's link still works.
    const ip = freshIp();
    for (let i = 0; i < REVIEW_THROTTLE.max; i++)
      await json(await call('POST', '/api/reviews', { ip, body: validReview() }), 201);
    await expectError(await call('POST', '/api/reviews', { ip, body: validReview() }), 429, MSG.reviewThrottled);
    const taken = await json<{ id: number; approved: boolean }>(await review(stay.token, ip), 201);
    expect(taken).toMatchObject({ approved: false });
    await expectError(await review(stay.token), 409, MSG.stayReviewTwice);
    // Two sends at once (a double tap): one review.
    const statuses = (await Promise.all([review(raced.token), review(raced.token)])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const rows = await env.DB.prepare(
      'SELECT booking_id AS bookingId, verified_stay AS verified FROM reviews WHERE booking_id IS NOT NULL ORDER BY booking_id',
    ).all();
    expect(rows.results).toEqual([
      { bookingId: stay.id, verified: 1 },
      { bookingId: raced.id, verified: 1 },
    ]);

    const admin = await json<{ id: number; verifiedStay: boolean; approved: boolean }[]>(
      await call('GET', '/api/reviews', { cookie: await login() }),
      200,
    );
    expect(admin.find((r) => r.id === taken.id)).toMatchObject({ verifiedStay: true, approved: false });
    expect(await json<unknown[]>(await call('GET', '/api/reviews/approved'), 200)).toEqual([]);
    await json(await call('PUT', `/api/reviews/${taken.id}`, { cookie: await login(), body: { approved: true } }), 200);
    const [shown] = await json<Record<string, unknown>[]>(await call('GET', '/api/reviews/approved'), 200);
    expect(shown).toMatchObject({ id: taken.id, name: 'Мадина', verifiedStay: true });
    expect(shown).not.toHaveProperty('bookingId');
    expect(shown).not.toHaveProperty('email');

    // The link works as long as the guest's page: 60 days after departure, no longer.
    clockAt(addDays(late.answer.checkOut, 61));
    await expectError(await review(late.token), 400, MSG.stayTokenInvalid);
  });
});

describe('the e-mail of a payment given back by itself', () => {
  // With prepayment through the ЮKassa stand-in (test/worker/guest.test.ts has the payments themselves).
  // The mail API sends the guests' mail only (no MAIL_TO): the owner's alerts by e-mail would
  // wait out their tries at once (~20 s) while the mail server is down (channels.test.ts has them).
  const SHOP: Partial<Bindings> = {
    YOOKASSA_API_URL: yk.apiUrl,
    YOOKASSA_SHOP_ID: yk.shopId,
    YOOKASSA_SECRET_KEY: yk.secretKey,
    MAILER: standInMailer({ owner: false }),
  };
  const pay = callWith({ ...MAIL, ...SHOP });
  const paid = async (paymentId: string) => {
    expect((await fetch(`${yk.base}/_payments/${paymentId}/succeed`, { method: 'POST' })).status).toBe(200);
    return json<{ outcome: string }>(
      await pay('POST', '/api/payments/yookassa', {
        body: { type: 'notification', event: 'payment.succeeded', object: { id: paymentId } },
      }),
      200,
    );
  };
  const paymentsOf = (bookingId: number) =>
    env.DB.prepare("SELECT id, kind FROM payments WHERE booking_id = ? ORDER BY kind = 'balance', created_at")
      .bind(bookingId)
      .all<{ id: string; kind: string }>()
      .then((r) => r.results);
  const bookStay = async (from: number, email: string) => {
    const { id, guestUrl } = await json<{ id: number; guestUrl: string }>(
      await pay('POST', '/api/bookings', {
        body: validBooking((await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 })).id, {
          name: 'Мадина Гасанова',
          email,
          checkIn: day(from),
          checkOut: day(from + 3),
        }),
      }),
      201,
    );
    return { id, page: `/api/guest/${guestUrl.slice(3)}` };
  };

  it('should tell the guest of a prepayment that came after the booking was cancelled and of the rest paid after it, keep the e-mail while the mail server is down, and list it in the booking’s messages', async () => {
    const cookie = await login();
    await json(
      await pay('PUT', '/api/settings', {
        cookie,
        body: { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent: 30 }, holdMinutes: 30 },
      }),
      200,
    );

    // The guest cancelled the booking waiting for its prepayment, then paid on ЮKassa's page.
    const first = guestEmail();
    const early = await bookStay(30, first);
    await json(await pay('POST', `${early.page}/cancel`, { body: {} }), 200);
    expect(await paid((await paymentsOf(early.id))[0]!.id)).toMatchObject({ outcome: 'refunded' });
    const [mail] = await mailsTo(first);
    expect(mail!.subject).toMatch(new RegExp(`^Оплата возвращена: бронирование №${early.id}`));
    expect(mail!.text).toContain('пришла, когда бронь была уже отменена');
    expect(mail!.text).toMatch(/Мы вернули предоплату 4\s500\s₽/);
    expect(await messagesOf(cookie, early.id)).toMatchObject([
      { kind: 'refund', recipient: first, sentAt: expect.any(String), attempts: 1 },
    ]);

    // Confirmed and prepaid; the guest starts paying the rest, the owner cancels meanwhile, the
    // rest comes while the mail server is down.
    const second = guestEmail();
    const late = await bookStay(40, second);
    expect(await paid((await paymentsOf(late.id))[0]!.id)).toMatchObject({ outcome: 'confirmed' });
    await json(await pay('POST', `${late.page}/pay`, { body: {} }), 200);
    await json(await pay('PUT', `/api/admin/bookings/${late.id}`, { cookie, body: { status: 'cancelled' } }), 200);
    await outage(true);
    expect(await paid((await paymentsOf(late.id))[1]!.id)).toMatchObject({ outcome: 'refunded' });
    const kept = (await messagesOf(cookie, late.id)).find((m) => m.kind === 'refund');
    expect(kept).toMatchObject({
      recipient: second,
      sentAt: null,
      attempts: 1,
      lastError: expect.stringContaining('503'),
      givenUpAt: null,
    });
    expect(kept!.text).toContain('Оплата остатка по брони');

    // The mail server back: the schedule sends it, once, though the booking stays cancelled.
    await outage(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    minutesLater(2);
    await runSchedule({ ...bindings(), ...SHOP } as Bindings, { push: true, pull: false, upkeep: true });
    const refunds = (await mailsTo(second)).filter((m) => m.subject.startsWith('Оплата возвращена'));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.text).toMatch(/Мы вернули этот платёж 10\s500\s₽/);
    expect((await messagesOf(cookie, late.id)).find((m) => m.kind === 'refund')).toMatchObject({
      sentAt: expect.any(String),
      attempts: 2,
      lastError: null,
    });
    minutesLater(5);
    await runSchedule({ ...bindings(), ...SHOP } as Bindings, { push: true, pull: false, upkeep: true });
    expect((await mailsTo(second)).filter((m) => m.subject.startsWith('Оплата возвращена'))).toHaveLength(1);
  });
});

describe('the outbox within a Worker’s outbound requests', () => {
  it('should try at most a third of a run’s requests each minute where they are counted, oldest first, and the rest in the next runs', async () => {
    // Owner's alerts by e-mail, due now; each try is one request to the mail API. Counted in the
    // outbox (sent, or tried and failed): the mail stand-in is shared with the other runtime's tests.
    const mark = Math.random().toString(36).slice(2, 8);
    // Nothing else due: an alert of an earlier test that met the other runtime's outage would take a place.
    await env.DB.prepare('DELETE FROM outbox').run();
    const alerts = async (count: number, subject: string) => {
      // Five at a time (D1 binds at most 100 values a statement), held by nobody (a lease already
      // over: one ending this very millisecond still holds it).
      for (let i = 0; i < count; i += 5)
        await enqueue(env, Array(Math.min(5, count - i)).fill('email'), { subject, text: 'Новая заявка' }, -1);
    };
    const tried = async (subject: string) =>
      (await env.DB.prepare(
        'SELECT count(*) AS n FROM outbox WHERE subject = ? AND (sent_at IS NOT NULL OR attempts > 0)',
      )
        .bind(subject)
        .first<{ n: number }>())!.n;
    await alerts(20, `Пакет ${mark}`);
    // The Cloudflare entry's budget (45 a run on the Free plan's 50): a quarter, 11, for the outbox.
    const worker = { ...bindings(), SUBREQUESTS_PER_RUN: 45 };
    await runSchedule(worker, { push: true, pull: false, upkeep: false });
    expect(await tried(`Пакет ${mark}`)).toBe(11);
    await runSchedule(worker, { push: true, pull: false, upkeep: false });
    expect(await tried(`Пакет ${mark}`)).toBe(20);
    // The Node server counts none: its run takes 25 at once.
    await alerts(30, `Пакет ${mark}-2`);
    await runSchedule(bindings(), { push: true, pull: false, upkeep: false });
    expect(await tried(`Пакет ${mark}-2`)).toBe(25);
  });
});
