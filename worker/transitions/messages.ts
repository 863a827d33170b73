// The messages a transition causes, kept in the outbox by the same batch as its conditional write
// (docs/architecture.md «Transitions»). Each insert carries the transition's own condition, so the
// rows exist exactly when the transition happened: of any number of racers only the one whose
// write went through keeps them, and a crash right after the batch leaves them to the schedule's
// drain. The unique key (booking, kind, channel, event) makes a repeat write nothing.
import { sql, type SQL } from 'drizzle-orm';
import { outbox } from '../../schema/tables.ts';
import type { GuestMessageKind } from '../../schema/guest-page.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import { attempt, CONFIRMATION_MAIL_TIMEOUT_MS } from '../notify/guest.ts';
import {
  messageOf,
  OWNER_FIRST_LEASE_MS,
  ownerChannels,
  tryOwnerNow,
  type Channel,
  type OwnerNotice,
  type Sender,
} from '../notify/owner.ts';
import type { MailerPort } from '../platform/ports.ts';
import { readTelegramBot, type TelegramBot } from '../queries/telegram-bot.ts';
import { readMaxBot, type MaxBot } from '../queries/max-bot.ts';
import { tryTelegramNow } from '../notify/guest-telegram.ts';
import { tryMaxNow } from '../notify/guest-max.ts';

export type OwnerMessage = { to: 'owner'; notice: OwnerNotice };
export type GuestMessage = {
  to: 'guest';
  bookingId: number;
  kind: GuestMessageKind;
  event?: string;
  recipient: string;
  subject: string;
  text: string;
  /**
   * The same message in a few words for the guest's Telegram chat or MAX dialog, if they tied one
   * (schema/telegram.ts telegramGuestText).
   */
  telegram?: { subject: string; text: string };
};
export type Message = OwnerMessage | GuestMessage;

/**
 * Where a message can go now: the owner's channels that are set, mail to guests, and the guests'
 * Telegram bot and the MAX bot when the owner connected them. Read before the batch.
 */
export type Reach = { owner: Map<Channel, Sender>; mailer?: MailerPort; telegram?: TelegramBot; max?: MaxBot };
export const reachOf = async (env: Bindings): Promise<Reach> => {
  const [owner, telegram, max] = await Promise.all([
    ownerChannels(env),
    readTelegramBot(env).catch((err) => {
      console.error('The guests’ Telegram bot could not be read:', messageOf(err));
      return null;
    }),
    readMaxBot(env).catch((err) => {
      console.error('The MAX bot could not be read:', messageOf(err));
      return null;
    }),
  ]);
  return { owner, mailer: env.MAILER, ...(telegram ? { telegram } : {}), ...(max ? { max } : {}) };
};

type Row = {
  channel: string;
  subject: string;
  text: string;
  bookingId: number | null;
  kind: string | null;
  recipient: string | null;
  event: string;
};

function rowsOf(m: Message, reach: Reach): Row[] {
  if (m.to === 'owner')
    return [...reach.owner.keys()].map((channel) => ({
      channel,
      ...m.notice,
      bookingId: null,
      kind: null,
      recipient: null,
      event: '',
    }));
  const rows: Row[] = [];
  if (reach.mailer && m.recipient)
    rows.push({
      channel: 'email',
      subject: m.subject,
      text: m.text,
      bookingId: m.bookingId,
      kind: m.kind,
      recipient: m.recipient,
      event: m.event ?? '',
    });
  // Written only if the booking has a chat at that point of the batch; its recipient is the chat.
  if (reach.telegram && m.telegram)
    rows.push({
      channel: 'telegram',
      ...m.telegram,
      bookingId: m.bookingId,
      kind: m.kind,
      recipient: null,
      event: m.event ?? '',
    });
  // The same words to the guest's MAX dialog, written only if the booking has one then.
  if (reach.max && m.telegram)
    rows.push({
      channel: 'max',
      ...m.telegram,
      bookingId: m.bookingId,
      kind: m.kind,
      recipient: null,
      event: m.event ?? '',
    });
  return rows;
}

/** A transition's messages as statements for its batch, and what to try once the batch is written. */
export type KeptMessages = {
  statements: ReturnType<typeof insertRowWhen>[];
  rows: { row: Row; message: Message }[];
  lease: number;
};

function insertRowWhen(env: Bindings, row: Row, when: SQL, at: number, lease: number) {
  const values = { ...row, attempts: 0, nextAttemptAt: at, leaseUntil: lease, createdAt: at };
  const insert =
    row.channel === 'telegram' && row.bookingId !== null
      ? insertWhen(
          getDb(env),
          outbox,
          { ...values, recipient: sql`guest_chats.chat_id` },
          sql`guest_chats.booking_id = ${row.bookingId} and (${when})`,
          sql`guest_chats`,
        )
      : row.channel === 'max' && row.bookingId !== null
        ? insertWhen(
            getDb(env),
            outbox,
            { ...values, recipient: sql`guest_max_chats.user_id` },
            sql`guest_max_chats.booking_id = ${row.bookingId} and (${when})`,
            sql`guest_max_chats`,
          )
        : insertWhen(getDb(env), outbox, values, when);
  return insert.onConflictDoNothing().returning({ id: outbox.id, recipient: outbox.recipient });
}

/**
 * The outbox rows of `messages`, each written only `when` the condition holds at that point of the
 * batch (put them before the write that changes what the condition reads). Held by this sender
 * while it tries them at once after the batch.
 */
export function keepWhen(env: Bindings, when: SQL, messages: Message[], reach: Reach): KeptMessages {
  const at = now();
  const lease = at + OWNER_FIRST_LEASE_MS;
  const rows = messages.flatMap((message) => rowsOf(message, reach).map((row) => ({ row, message })));
  return { statements: rows.map(({ row }) => insertRowWhen(env, row, when, at, lease)), rows, lease };
}

/** Several groups' statements, in order, for one batch. */
export const statementsOf = (...groups: KeptMessages[]) => groups.flatMap((g) => g.statements);

/**
 * Tries at once the rows the batch wrote (`results`, one per statement of `kept`, in order): the
 * owner's by their channels, a guest's by mail. Answers, per guest message kind, whether it went.
 * Never throws: a row that fails stays in the outbox for the schedule.
 */
export async function sendKept(
  env: Bindings,
  kept: KeptMessages,
  results: readonly { id: number; recipient?: string | null }[][],
  reach: Reach,
): Promise<Map<string, boolean>> {
  const went = new Map<string, boolean>();
  const tries: Promise<unknown>[] = [];
  const owner = new Map<OwnerNotice, { channel: Channel; id: number }[]>();
  kept.rows.forEach(({ row, message }, i) => {
    const id = results[i]?.[0]?.id;
    if (id === undefined) return;
    if (message.to === 'owner')
      owner.set(message.notice, [...(owner.get(message.notice) ?? []), { channel: row.channel as Channel, id }]);
    else if (row.channel === 'telegram') {
      const chat = results[i]?.[0]?.recipient;
      if (reach.telegram && chat)
        tries.push(
          tryTelegramNow(env, reach.telegram, {
            id,
            attempts: 0,
            createdAt: now(),
            bookingId: message.bookingId,
            kind: message.kind,
            recipient: chat,
            text: row.text,
          }),
        );
    } else if (row.channel === 'max') {
      const user = results[i]?.[0]?.recipient;
      if (reach.max && user)
        tries.push(
          tryMaxNow(env, reach.max, {
            id,
            attempts: 0,
            createdAt: now(),
            bookingId: message.bookingId,
            kind: message.kind,
            recipient: user,
            text: row.text,
          }),
        );
    } else if (reach.mailer) {
      const createdAt = now();
      tries.push(
        attempt(
          env,
          reach.mailer,
          { id, attempts: 0, createdAt, bookingId: message.bookingId, kind: message.kind },
          { to: message.recipient, subject: message.subject, text: message.text },
          CONFIRMATION_MAIL_TIMEOUT_MS,
        ).then((ok) => went.set(message.kind, ok)),
      );
    }
  });
  for (const [notice, rows] of owner) tries.push(tryOwnerNow(env, reach.owner, { rows, lease: kept.lease }, notice));
  await Promise.all(tries);
  return went;
}
