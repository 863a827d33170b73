// SMS to guests who tied no messenger (docs/operations.md «SMS for guests»): connecting the
// owner's gateway (its key checked first), keeping the confirmation and the reminders in the outbox,
// and sending one under the month's cap (the price reserved before the send, settled after the answer).
import { eq, sql } from 'drizzle-orm';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { smsGuestText, smsPhone, type SmsSettingsBody } from '../../schema/sms.ts';
import { outbox, type Booking, type OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import { enqueueGuestMessages, markFailed, markSent } from '../queries/outbox.ts';
import {
  hasMessenger,
  HAS_MESSENGER,
  noteSmsOutcome,
  readSmsGateway,
  reserveSms,
  saveSmsGateway,
  settleSms,
  smsRemindersDue,
  type SmsGateway,
} from '../queries/sms.ts';
import { getSettings } from '../queries/settings.ts';
import { GUEST_LEASE_MS, messageOrigin, whyStayRefuses, type MessageStay } from './guest.ts';
import { markTryFailed, messageOf, outboxRetryMs, triedTooLong } from './owner.ts';
import { SmsApiError, smsBalance, smsCost, smsSend, smsSenders } from './sms-api.ts';

/** A number only for pricing a message in «Настройки» (a Russian mobile): nothing is sent to it. */
const PRICE_SAMPLE_PHONE = '79000000000';
/** A reminder as long as a real one, for its price in «Настройки». */
const PRICE_SAMPLE = smsGuestText(
  'reminder',
  {
    cabinName: 'Домик у моря',
    checkIn: '2027-07-12',
    checkOut: '2027-07-15',
    guestToken: 'AbCdEfGhIjKlMnOpQrStUvWx',
  },
  'https://kaspiy.ru',
).text;

/**
 * Checks the key with the gateway (the balance, the sender names it allows, the price of a
 * reminder) and keeps the gateway with what it said; nothing is kept when it refuses. `key`
 * absent: the one kept. Throws SmsApiError (the gateway refused or was silent) or a plain Error
 * whose message is the owner's reason (no key, a sender it does not allow).
 */
export async function connectSmsGateway(env: Bindings, body: SmsSettingsBody): Promise<SmsGateway> {
  const current = await readSmsGateway(env);
  const key = body.key ?? (current?.provider === body.provider ? current.key : undefined);
  if (!key) throw new SmsSetupError(MSG.smsKeyRequired);
  const [balanceRub, senders] = await Promise.all([smsBalance(env, key), smsSenders(env, key)]);
  const sender = body.sender?.trim() || null;
  if (sender && !senders.includes(sender)) throw new SmsSetupError(MSG.smsSenderNotAllowed);
  // The price as the gateway counts it; a refusal here (say no money yet) leaves it unknown.
  const price = await smsCost(env, key, PRICE_SAMPLE_PHONE, PRICE_SAMPLE).then(
    (c) => ({ perPartKop: Math.round(c.kop / Math.max(1, c.parts)), reminderParts: c.parts, reminderKop: c.kop }),
    (err) => {
      console.error('SMS.ru could not price a message:', messageOf(err));
      return null;
    },
  );
  const gateway: SmsGateway = {
    provider: body.provider,
    key,
    sender,
    monthlyCapRub: body.monthlyCapRub,
    balanceRub,
    senders,
    price,
    checkedAt: now(),
    error: balanceRub <= 0 ? MSG.smsNoMoney : null,
  };
  await saveSmsGateway(env, gateway);
  return gateway;
}

/** The owner's settings cannot be kept as sent: the message is the reason, in Russian. */
export class SmsSetupError extends Error {}

/**
 * The schedule's SMS reminders, with the e-mail and Telegram ones (worker/notify/stay-messages.ts):
 * for each confirmed stay arriving within `daysBefore` days whose guest left a phone and tied no
 * messenger, one outbox row (channel 'sms', the phone in digits as the recipient). Nothing with the
 * gateway off. Answers how many were kept.
 */
export async function queueSmsReminders(env: Bindings, origin: string, daysBefore: number): Promise<number> {
  const gateway = await readSmsGateway(env);
  if (!gateway) return 0;
  const today = todayInMoscow(now());
  const stays = await smsRemindersDue(env, addDays(today, 1), addDays(today, daysBefore));
  return enqueueGuestMessages(
    env,
    stays.flatMap((s) => {
      const to = smsPhone(s.phone);
      if (!to) return [];
      return [
        {
          bookingId: s.id,
          kind: 'reminder' as const,
          channel: 'sms' as const,
          recipient: to,
          ...smsGuestText('reminder', s, origin),
        },
      ];
    }),
  );
}

/**
 * Sends one due SMS of a guest that this sender has claimed (the drain): given up when the owner
 * switched SMS off, the guest tied a messenger since, or the message must not go any more for
 * the reasons an e-mail would not (its booking cancelled, the arrival passed).
 */
export async function sendGuestSms(
  env: Bindings,
  row: OutboxRow,
  stay: MessageStay | undefined,
): Promise<'sent' | 'failed' | 'given up'> {
  const giveUp = async (why: string) => {
    console.log(`The ${row.kind} SMS of booking ${row.bookingId} given up: ${why}`);
    await markFailed(env, row.id, why, { giveUp: true });
    return 'given up' as const;
  };
  const gateway = await readSmsGateway(env);
  if (!gateway) return giveUp(MSG.smsOff);
  if (!row.recipient) return giveUp(MSG.smsRecipientRefused);
  const why = whyStayRefuses(row, stay, todayInMoscow(now()));
  if (why) return giveUp(why);
  if (row.bookingId !== null && (await hasMessenger(env, row.bookingId))) return giveUp(MSG.smsHasMessenger);
  return deliverSms(env, gateway, { ...row, recipient: row.recipient });
}

/**
 * One try: the price asked, reserved under the month's cap, the message sent, the reservation
 * settled with what the gateway charged (or given back when it refused). A cap reached, no money
 * or the gateway's silence is a failed try, tried again after the outbox's pause and shown to the
 * owner; a number that can take no SMS is given up.
 */
async function deliverSms(
  env: Bindings,
  gateway: SmsGateway,
  row: OutboxRow & { recipient: string },
): Promise<'sent' | 'failed' | 'given up'> {
  const failed = async (err: unknown) => {
    const tooOld = triedTooLong(row);
    const recipient = err instanceof SmsApiError && err.failure === 'recipient';
    console.error(
      `The ${row.kind} SMS of booking ${row.bookingId} failed (try ${row.attempts + 1})${recipient ? ', given up' : tooOld ? ', given up after 3 days' : ', kept for the schedule'}:`,
      messageOf(err),
    );
    const forOwner = err instanceof SmsApiError ? err.forOwner : messageOf(err);
    if (!recipient) await noteSmsOutcome(env, gateway.key, { error: forOwner });
    await markTryFailed(env, row, new Error(forOwner), recipient || tooOld);
    return recipient ? ('given up' as const) : ('failed' as const);
  };
  let price: { kop: number };
  try {
    price = await smsCost(env, gateway.key, row.recipient, row.text);
  } catch (err) {
    return failed(err);
  }
  const reservation = await reserveSms(env, row.id, price.kop, gateway.monthlyCapRub * 100);
  if (reservation === null) {
    // «Настройки» shows the cap reached from the month's money itself (worker/queries/sms.ts smsStatus).
    console.error(`The ${row.kind} SMS of booking ${row.bookingId} waits: the month’s SMS cap is reached`);
    if (triedTooLong(row)) await markFailed(env, row.id, MSG.smsCapReached, { giveUp: true });
    else await markFailed(env, row.id, MSG.smsCapReached, { retryAt: now() + outboxRetryMs(row.attempts + 1) });
    return 'failed';
  }
  try {
    const sent = await smsSend(env, gateway.key, row.recipient, row.text, gateway.sender ?? undefined);
    await settleSms(env, reservation, { spent: true, costKop: sent.costKop ?? price.kop, smsId: sent.smsId });
    await markSent(env, row.id);
    await noteSmsOutcome(env, gateway.key, { error: null, balanceRub: sent.balanceRub });
    return 'sent';
  } catch (err) {
    // No answer after the request went: it may have been sent and charged, so the price stays
    // counted (the cap holds); any answer that refused gives the reservation back.
    const uncertain = !(err instanceof SmsApiError) || err.uncertain;
    await settleSms(env, reservation, uncertain ? { spent: true, costKop: price.kop, smsId: null } : { spent: false });
    return failed(err);
  }
}

/**
 * The owner's «Подтвердить» in «Заявки»: the confirmation by SMS, with the link to the guest's
 * page, where SMS is on, the guest left a phone and tied no messenger, under the same switch as its
 * e-mail («Настройки» → «Письма гостям»). Kept in the outbox once per booking (held for a short
 * lease) and tried at once; what fails is the schedule's. `origin` is the request's address, used
 * when SITE_URL is not set. Never throws: the booking stays confirmed whatever SMS.ru does.
 */
export async function smsConfirmation(
  env: Bindings,
  booking: Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'guestToken' | 'phone'>,
  cabinName: string,
  origin?: string,
): Promise<void> {
  try {
    const site = messageOrigin(env, origin);
    const to = smsPhone(booking.phone);
    if (!booking.guestToken || !site || !to) return;
    const gateway = await readSmsGateway(env);
    if (!gateway) return;
    const { messages } = await getSettings(env);
    if (!messages.confirmation.enabled) return;
    const words = smsGuestText('confirmation', { ...booking, guestToken: booking.guestToken, cabinName }, site);
    const at = now();
    const db = getDb(env);
    const [kept] = await insertWhen(
      db,
      outbox,
      {
        channel: 'sms',
        ...words,
        attempts: 0,
        nextAttemptAt: at,
        leaseUntil: at + GUEST_LEASE_MS,
        createdAt: at,
        bookingId: booking.id,
        kind: 'confirmation',
        recipient: to,
        event: '',
      },
      // Written only while the guest has no messenger: the confirmation goes there then.
      sql.raw(`not exists (select 1 from bookings b where b.id = ${Number(booking.id)} and ${HAS_MESSENGER})`),
    )
      .onConflictDoNothing()
      .returning({ id: outbox.id });
    if (!kept) return;
    const row = await db.select().from(outbox).where(eq(outbox.id, kept.id)).get();
    if (row?.recipient) await deliverSms(env, gateway, { ...row, recipient: row.recipient });
  } catch (err) {
    console.error(`The confirmation SMS of booking ${booking.id} could not be kept or sent:`, messageOf(err));
  }
}
