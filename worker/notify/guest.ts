import { todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { guestMail } from '../../schema/guest-mail.ts';
import { guestPageLastDay } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { Booking, OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import type { MailerPort } from '../platform/ports.ts';
import { enqueueGuestMessage, guestMessageOf, markFailed, markSent, rearmMessage } from '../queries/outbox.ts';
import { getSettings } from '../queries/settings.ts';
import { markTryFailed, messageOf, outboxKey, triedTooLong } from './owner.ts';

/** Whether the guest's confirmation went: '' when none was tried (no e-mail left, no mail set up, the message switched off). */
export type ConfirmationMail = '' | 'sent' | 'failed';

/** How long the owner's «Подтвердить» waits for the mail server before saying «не отправлено». */
export const CONFIRMATION_MAIL_TIMEOUT_MS = 15_000;
/** How long a sender holds a guest's message while it tries (longer than a try may take). */
export const GUEST_LEASE_MS = 2 * CONFIRMATION_MAIL_TIMEOUT_MS;

/**
 * The public address the guest's links point at: SITE_URL, else the address of the request that
 * made the message, when there is one (the schedule has none).
 */
export const messageOrigin = (env: Pick<Bindings, 'SITE_URL'>, requestOrigin?: string): string | undefined =>
  env.SITE_URL?.trim() || requestOrigin || undefined;

/** One try, bounded in time: a mail server that hangs is a failed try, not a stuck owner or schedule. */
async function sendWithin(
  mailer: MailerPort,
  message: { to: string; subject: string; text: string; key?: string },
  timeoutMs: number,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)),
  );
  try {
    await Promise.race([mailer.send(message), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One try of a guest's message held by this sender: noted as sent, or as failed with the cause
 * and the next try after the backoff (given up after days, like the owner's alerts).
 */
export async function attempt(
  env: Bindings,
  mailer: MailerPort,
  row: Pick<OutboxRow, 'id' | 'attempts' | 'createdAt' | 'bookingId' | 'kind'>,
  message: { to: string; subject: string; text: string },
  timeoutMs: number,
): Promise<boolean> {
  try {
    await sendWithin(mailer, { ...message, key: await outboxKey(env, row.id, message) }, timeoutMs);
    await markSent(env, row.id);
    return true;
  } catch (err) {
    const tooOld = triedTooLong(row);
    console.error(
      `The ${row.kind} e-mail of booking ${row.bookingId} failed (try ${row.attempts + 1})${tooOld ? ', given up after 3 days' : ', kept for the schedule'}:`,
      messageOf(err),
    );
    await markTryFailed(env, row, err, tooOld);
    return false;
  }
}

/**
 * E-mails the guest the confirmation, from the owner's template with the link to the
 * guest's page, where there is mail (the MAILER port), the guest left an address and the message
 * is on. It is kept in the outbox first (the booking's «Письма гостю»), then tried once at once,
 * bounded in time: the owner sees at once whether it went; one that failed is tried again by the
 * schedule. Never throws: the booking is confirmed whatever the mail server does. `origin` is the
 * request's address, used when SITE_URL is not set.
 */
export async function mailConfirmation(
  env: Bindings,
  booking: Booking,
  cabinName: string,
  timeoutMs = CONFIRMATION_MAIL_TIMEOUT_MS,
  origin?: string,
): Promise<ConfirmationMail> {
  const mailer = env.MAILER;
  if (!mailer || !booking.email || !booking.guestToken) return '';
  try {
    const { messages } = await getSettings(env);
    if (!messages.confirmation.enabled) return '';
    const site = messageOrigin(env, origin);
    if (!site) {
      console.error(
        `The confirmation e-mail of booking ${booking.id} was not sent: SITE_URL is not set, and its link needs the site's address`,
      );
      return '';
    }
    const words = guestMail('confirmation', messages, { ...booking, guestToken: booking.guestToken, cabinName }, site);
    const fresh = { recipient: booking.email, ...words };
    const kept = await enqueueGuestMessage(
      env,
      { bookingId: booking.id, kind: 'confirmation', ...fresh },
      GUEST_LEASE_MS,
    );
    let row = kept && { id: kept.id, attempts: 0, createdAt: now() };
    if (!row) {
      // Confirmed before (cancelled and confirmed again): once sent it is not sent twice; one that
      // did not go is tried now, in today's words.
      const before = await guestMessageOf(env, booking.id, 'confirmation');
      if (!before) return 'failed';
      if (before.sentAt !== null) return 'sent';
      if ((await rearmMessage(env, before.id, GUEST_LEASE_MS, fresh)) === null) return 'failed';
      row = before;
    }
    const sent = await attempt(
      env,
      mailer,
      { ...row, bookingId: booking.id, kind: 'confirmation' },
      { to: booking.email, ...words },
      timeoutMs,
    );
    return sent ? 'sent' : 'failed';
  } catch (err) {
    console.error(`The confirmation e-mail of booking ${booking.id} failed:`, messageOf(err));
    return 'failed';
  }
}

/** What a guest's message still depends on: its booking as it is now. */
export type MessageStay = { status: string; checkIn: IsoDate; checkOut: IsoDate };

/**
 * Why a kept message to a guest must not go now, or null: mail is no longer set up, its booking
 * is no longer confirmed (cancelled meanwhile; not asked of a refund's message), the reminder's
 * arrival day has come, or the review link has expired. Said in Russian: the owner reads it in the booking's messages.
 */
export function whyNotSend(
  row: Pick<OutboxRow, 'kind'>,
  stay: MessageStay | undefined,
  today: IsoDate,
  mailer: MailerPort | undefined,
): string | null {
  if (!mailer) return MSG.mailNotConfigured;
  return whyStayRefuses(row, stay, today);
}

/** Why a kept message to a guest must not go now by any channel, or null: the same reasons, less mail's. */
export function whyStayRefuses(
  row: Pick<OutboxRow, 'kind'>,
  stay: MessageStay | undefined,
  today: IsoDate,
): string | null {
  // A refund's message is about a booking that no longer stands: it goes whatever came after.
  if (row.kind === 'refund') return null;
  // The owner's own answer in «Сообщения», and the automatic one outside their hours, go whatever
  // became of the booking: the guest wrote.
  if (row.kind === 'reply' || row.kind === 'auto-answer') return null;
  if (!stay || stay.status !== 'confirmed') return MSG.messageNotConfirmed;
  if (row.kind === 'reminder' && today >= stay.checkIn) return MSG.messageAfterArrival;
  if (row.kind === 'review' && today > guestPageLastDay(stay.checkOut)) return MSG.messageReviewExpired;
  return null;
}

/**
 * Sends one due message to a guest that this sender has claimed (the schedule's drain, the
 * owner's «Отправить снова»): given up with the reason when it must not go any more.
 */
export async function sendGuestMessage(
  env: Bindings,
  row: OutboxRow,
  stay: MessageStay | undefined,
): Promise<'sent' | 'failed' | 'given up'> {
  const why = whyNotSend(row, stay, todayInMoscow(now()), env.MAILER);
  if (why || !row.recipient) {
    console.log(`The ${row.kind} e-mail of booking ${row.bookingId} given up: ${why ?? 'no address'}`);
    await markFailed(env, row.id, why ?? MSG.messageNotFound, { giveUp: true });
    return 'given up';
  }
  const sent = await attempt(
    env,
    env.MAILER!,
    row,
    { to: row.recipient, subject: row.subject, text: row.text },
    CONFIRMATION_MAIL_TIMEOUT_MS,
  );
  return sent ? 'sent' : 'failed';
}
