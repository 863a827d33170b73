// The messages a transition causes, kept in the outbox by the same batch as its conditional write
// (docs/architecture.md «Transitions»). Each insert carries the transition's own condition, so the
// rows exist exactly when the transition happened: of any number of racers only the one whose
// write went through keeps them, and a crash right after the batch leaves them to the schedule's
// drain. The unique key (booking, kind, channel, event) makes a repeat write nothing.
import type { SQL } from 'drizzle-orm';
import { outbox } from '../../schema/tables.ts';
import type { GuestMessageKind } from '../../schema/guest-page.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import { attempt, CONFIRMATION_MAIL_TIMEOUT_MS } from '../notify/guest.ts';
import {
  OWNER_FIRST_LEASE_MS,
  ownerChannels,
  tryOwnerNow,
  type Channel,
  type OwnerNotice,
  type Sender,
} from '../notify/owner.ts';
import type { MailerPort } from '../platform/ports.ts';

export type OwnerMessage = { to: 'owner'; notice: OwnerNotice };
export type GuestMessage = {
  to: 'guest';
  bookingId: number;
  kind: GuestMessageKind;
  event?: string;
  recipient: string;
  subject: string;
  text: string;
};
export type Message = OwnerMessage | GuestMessage;

/** Where a message can go now: the owner's channels that are set, and mail to guests. Read before the batch. */
export type Reach = { owner: Map<Channel, Sender>; mailer?: MailerPort };
export const reachOf = async (env: Bindings): Promise<Reach> => ({
  owner: await ownerChannels(env),
  mailer: env.MAILER,
});

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
  if (!reach.mailer || !m.recipient) return [];
  return [
    {
      channel: 'email',
      subject: m.subject,
      text: m.text,
      bookingId: m.bookingId,
      kind: m.kind,
      recipient: m.recipient,
      event: m.event ?? '',
    },
  ];
}

/** A transition's messages as statements for its batch, and what to try once the batch is written. */
export type KeptMessages = {
  statements: ReturnType<typeof insertRowWhen>[];
  rows: { row: Row; message: Message }[];
  lease: number;
};

function insertRowWhen(env: Bindings, row: Row, when: SQL, at: number, lease: number) {
  return insertWhen(
    getDb(env),
    outbox,
    { ...row, attempts: 0, nextAttemptAt: at, leaseUntil: lease, createdAt: at },
    when,
  )
    .onConflictDoNothing()
    .returning({ id: outbox.id });
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
  results: readonly { id: number }[][],
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
    else if (reach.mailer) {
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
