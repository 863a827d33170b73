import { sql, type SQL } from 'drizzle-orm';
import { BOOKING_MAX_NIGHTS } from '../../schema/booking-options.ts';
import { addDays, type IsoDate } from '../../schema/dates.ts';

// SQL the reports share: the months of a period, what a stored price line is, what a
// booking's payments came to. The same text runs on D1 and on SQLite.

/**
 * The months of the nights [from, end), each clipped to them: rows (m_start, m_end), the first
 * from `from`, the last up to `end`. A period is at most 3 years, so at most 37 rows.
 */
export const monthsCte = (from: IsoDate, end: IsoDate): SQL => sql`months(m_start, m_end) as (
    select ${from}, min(date(${from}, 'start of month', '+1 month'), ${end})
    union all
    select m_end, min(date(m_end, '+1 month'), ${end}) from months where m_end < ${end})`;

/**
 * The kind of a stored price line (schema/payment-options.ts PriceLine). Lines stored before
 * kinds were written (the first ones) had nights, «Уборка» and «Туристический налог …» only, told
 * apart by their label.
 */
export const lineKind = (line: SQL): SQL => sql`coalesce(json_extract(${line}, '$.kind'),
    case when json_extract(${line}, '$.label') glob 'Туристический налог*' then 'tax'
         when json_extract(${line}, '$.label') = 'Уборка' then 'fee' else 'nights' end)`;

/** The kinds of line that are the accommodation itself: what the tourist tax and the price of a night are of. */
export const LODGING_KINDS = sql`('nights', 'extraGuests', 'children', 'discount', 'promo')`;

/** The sum of a booking's lines of the given kinds (an SQL list), null when it stored none. */
export const linesSum = (booking: SQL, kinds: SQL): SQL =>
  sql`(select sum(json_extract(l.value, '$.amount')) from json_each(${booking}.lines) l where ${lineKind(sql`l.value`)} in ${kinds})`;

/**
 * What has gone back of a payment (kopecks), as worker/payments/refunds.ts refundedOf says:
 * nothing unless it was paid; nothing of a refund ЮKassa cancelled; a refund made before
 * refund_amount was kept was of the whole payment.
 */
const refundedOfPayment = (p: SQL) => sql`case when ${p}.status <> 'succeeded' or ${p}.refund_status = 'canceled' then 0
    when ${p}.refund_id is not null then coalesce(${p}.refund_amount, ${p}.amount) else coalesce(${p}.refund_amount, 0) end`;

/** Over a booking's payments (kopecks), as «Заявки» shows them (moneyOf): paid with refunds taken off, and refunded. */
export const paidOf = (booking: SQL): SQL =>
  sql`(select coalesce(sum(p.amount - ${refundedOfPayment(sql`p`)}), 0) from payments p where p.booking_id = ${booking}.id and p.status = 'succeeded')`;
export const refundedOf = (booking: SQL): SQL =>
  sql`(select coalesce(sum(${refundedOfPayment(sql`p`)}), 0) from payments p where p.booking_id = ${booking}.id and p.status = 'succeeded')`;

/**
 * The earliest arrival of a booking with a night on or after `from`: no booking is longer than
 * BOOKING_MAX_NIGHTS (the request's own limit), so the bookings index (bookings_check_in_idx)
 * reads a period's stays without the years of history before it.
 */
export const earliestArrival = (from: IsoDate): IsoDate => addDays(from, -BOOKING_MAX_NIGHTS);

/** Whole days between two `YYYY-MM-DD` SQL values. */
export const daysBetween = (start: SQL, end: SQL): SQL =>
  sql`cast(round(julianday(${end}) - julianday(${start})) as integer)`;
