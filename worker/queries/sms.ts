import { z } from 'zod';
import type { IsoDate } from '../../schema/dates.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { SMS_PROVIDERS, type SmsStatus } from '../../schema/sms.ts';
import { now } from '../lib/clock.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { siteRecord } from './site-state.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The owner's SMS gateway lives in site_state, not in settings: everything in settings is public
 * (GET /api/settings, the built site), and the key is a secret only the server reads.
 */
const storedSchema = z.object({
  provider: z.enum(SMS_PROVIDERS),
  key: z.string().min(1),
  sender: z.string().nullable(),
  monthlyCapRub: z.number().int().min(0),
  balanceRub: z.number().nullable(),
  senders: z.array(z.string()),
  /** One part's price (kopecks) and the reminder's parts, as the gateway counted them when checked. */
  price: z.object({ perPartKop: z.number(), reminderParts: z.number(), reminderKop: z.number() }).nullable(),
  checkedAt: z.number(),
  /** The gateway's last refusal (or the cap reached), in words for the owner; null once a message went. */
  error: z.string().nullable(),
});
export type SmsGateway = z.infer<typeof storedSchema>;

const record = siteRecord('smsGateway', storedSchema);
export const readSmsGateway = (env: DbEnv): Promise<SmsGateway | null> => record.read(env);
export const saveSmsGateway = (env: DbEnv, gateway: SmsGateway): Promise<void> => record.save(env, gateway);
export const forgetSmsGateway = (env: DbEnv): Promise<void> => record.forget(env);

/**
 * Notes the gateway's word after a try (its refusal, or null once a message went, and the balance
 * it told), on the gateway as it is now, unless the key changed meanwhile.
 */
export async function noteSmsOutcome(
  env: DbEnv,
  key: string,
  outcome: { error: string | null; balanceRub?: number | null },
): Promise<void> {
  const gateway = await readSmsGateway(env);
  if (!gateway || gateway.key !== key) return;
  const balanceRub = outcome.balanceRub ?? gateway.balanceRub;
  if (gateway.error === outcome.error && gateway.balanceRub === balanceRub) return;
  await saveSmsGateway(env, { ...gateway, error: outcome.error, balanceRub });
}

// ——— The month's money. Kopecks throughout; a month is Moscow's `YYYY-MM`.

export const smsMonth = (ms = now()) => todayInMoscow(ms).slice(0, 7);

/**
 * Reserves `amountKop` of this month's SMS money for one try of the outbox row `outboxId`, if
 * the cap allows it. One batch: the month's row is made (or takes the owner's cap as it is now),
 * then ONE conditional write adds the reservation only where what is spent and reserved, with it,
 * stays within the cap, and the reservation's record is written only if that write changed the
 * row. Of any number of sends at once the database runs the writes one at a time, so the cap is
 * never passed between them. Answers the reservation's id, or null when the cap is reached.
 */
export async function reserveSms(
  env: DbEnv,
  outboxId: number,
  amountKop: number,
  capKop: number,
): Promise<number | null> {
  const month = smsMonth();
  const [, , reserved] = await env.DB.batch<{ id: number }>([
    env.DB.prepare(
      `insert into sms_budget (month, cap_kop, spent_kop, reserved_kop) values (?1, ?2, 0, 0)
       on conflict(month) do update set cap_kop = excluded.cap_kop where sms_budget.cap_kop <> excluded.cap_kop`,
    ).bind(month, capKop),
    env.DB.prepare(
      `update sms_budget set reserved_kop = reserved_kop + ?2
       where month = ?1 and spent_kop + reserved_kop + ?2 <= cap_kop`,
    ).bind(month, amountKop),
    env.DB.prepare(
      `insert into sms_spends (outbox_id, month, amount_kop, status, created_at)
       select ?1, ?2, ?3, 'reserved', ?4 where changes() = 1 returning id`,
    ).bind(outboxId, month, amountKop, now()),
  ]);
  return reserved?.results[0]?.id ?? null;
}

/**
 * Ends a reservation, once: `spent` with what the gateway charged (the month's reserved money
 * becomes spent), or `released` when the gateway refused (it goes back). Each statement acts only
 * while the reservation is still 'reserved', so a repeat changes nothing.
 */
export async function settleSms(
  env: DbEnv,
  id: number,
  outcome: { spent: true; costKop: number; smsId: string | null } | { spent: false },
): Promise<void> {
  const cost = outcome.spent ? outcome.costKop : 0;
  const open = `(select %s from sms_spends where id = ?1 and status = 'reserved')`;
  await env.DB.batch([
    env.DB.prepare(
      `update sms_budget set reserved_kop = reserved_kop - ${open.replace('%s', 'amount_kop')},
         spent_kop = spent_kop + ?2
       where month = ${open.replace('%s', 'month')}`,
    ).bind(id, cost),
    env.DB.prepare(
      `update sms_spends set status = ?2, cost_kop = ?3, sms_id = ?4, settled_at = ?5
       where id = ?1 and status = 'reserved'`,
    ).bind(
      id,
      outcome.spent ? 'spent' : 'released',
      outcome.spent ? cost : null,
      outcome.spent ? outcome.smsId : null,
      now(),
    ),
  ]);
}

/** This month's money so far, in kopecks. */
export async function smsMonthMoney(env: DbEnv): Promise<{ spentKop: number; reservedKop: number }> {
  const row = await env.DB.prepare('select spent_kop, reserved_kop from sms_budget where month = ?1')
    .bind(smsMonth())
    .first<{ spent_kop: number; reserved_kop: number }>();
  return { spentKop: row?.spent_kop ?? 0, reservedKop: row?.reserved_kop ?? 0 };
}

/** What the panel may see: never the key, only its last 4 characters, and what the gateway said. */
export function smsStatus(gateway: SmsGateway | null, money: { spentKop: number; reservedKop: number }): SmsStatus {
  if (!gateway) return { connected: false, last4: null };
  return {
    connected: true,
    provider: gateway.provider,
    last4: gateway.key.slice(-4),
    ...(gateway.sender ? { sender: gateway.sender } : {}),
    monthlyCapRub: gateway.monthlyCapRub,
    ...(gateway.balanceRub === null ? {} : { balanceRub: gateway.balanceRub }),
    senders: gateway.senders,
    ...(gateway.price
      ? {
          price: {
            perPartRub: gateway.price.perPartKop / 100,
            reminderParts: gateway.price.reminderParts,
            reminderRub: gateway.price.reminderKop / 100,
          },
        }
      : {}),
    month: { spentRub: money.spentKop / 100, reservedRub: money.reservedKop / 100 },
    checkedAt: gateway.checkedAt,
    ...(gateway.error ? { error: gateway.error } : capReached(gateway, money) ? { error: MSG.smsCapReached } : {}),
  };
}

/** Whether the month's cap leaves no room for another reminder at the price last checked. */
const capReached = (gateway: SmsGateway, money: { spentKop: number; reservedKop: number }) =>
  money.spentKop + money.reservedKop + Math.max(1, gateway.price?.reminderKop ?? 1) > gateway.monthlyCapRub * 100;

// ——— Who gets an SMS.

/** How many stays one run of the schedule takes up at most (the rest next run). */
const STAYS_PER_RUN = 200;

/**
 * A booking "has a messenger" when its guest tied a chat (guest_chats, guest_max_chats) or it has
 * a Telegram or MAX conversation: then its messages go there, not by SMS.
 */
export const HAS_MESSENGER = `(exists (select 1 from guest_chats gc where gc.booking_id = b.id)
  or exists (select 1 from guest_max_chats gm where gm.booking_id = b.id)
  or exists (select 1 from threads th where th.booking_id = b.id and th.channel in ('telegram', 'max')))`;

export type SmsStay = {
  id: number;
  phone: string;
  checkIn: string;
  checkOut: string;
  guestToken: string;
  cabinName: string;
};

/**
 * Confirmed stays arriving within [from, to] whose guest left a phone and tied no messenger, and
 * that have no SMS reminder yet: the ones the schedule's SMS reminder is due for.
 */
export async function smsRemindersDue(env: DbEnv, from: IsoDate, to: IsoDate): Promise<SmsStay[]> {
  if (from > to) return [];
  const { results } = await env.DB.prepare(
    `select b.id, b.phone, b.check_in as checkIn, b.check_out as checkOut, b.guest_token as guestToken, c.name as cabinName
     from bookings b join cabins c on c.id = b.cabin_id
     where b.status = 'confirmed' and b.guest_token is not null and b.phone <> ''
       and b.check_in >= ?1 and b.check_in <= ?2
       and not ${HAS_MESSENGER}
       and not exists (select 1 from outbox o where o.booking_id = b.id and o.kind = 'reminder' and o.channel = 'sms')
     order by b.id limit ${STAYS_PER_RUN}`,
  )
    .bind(from, to)
    .all<SmsStay>();
  return results;
}

/** Whether the booking's guest has tied a messenger since its SMS was kept. */
export async function hasMessenger(env: DbEnv, bookingId: number): Promise<boolean> {
  const row = await env.DB.prepare(`select 1 as yes from bookings b where b.id = ?1 and ${HAS_MESSENGER}`)
    .bind(bookingId)
    .first<{ yes: number }>();
  return !!row;
}
