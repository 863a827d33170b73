import { sql } from 'drizzle-orm';
import type { ReportQuery } from '../../schema/reports.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { linesSum, paidOf, refundedOf } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

/** A booking as the accountant's file lists it: money in kopecks where ЮKassa's, roubles elsewhere. */
export type BookingFileRow = {
  id: number;
  status: string;
  cabin: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  guests: number;
  total: number;
  tax: number;
  paid: number;
  refunded: number;
  paymentIds: string;
  refundIds: string;
  channel: string;
  /** Where the visit that made it came from (bookings.source, JSON), or null. */
  source: string | null;
  /** When the request came in, Moscow time, `YYYY-MM-DD HH:MM`. */
  createdAt: string;
  name: string;
  phone: string;
  email: string;
};

/**
 * Every booking arriving in the period (any status, as «Заявки» lists them), by arrival, with
 * what was paid and returned over its payments and ЮKassa's ids of both, for reconciliation.
 * One query.
 */
export async function bookingFileRows(env: DbEnv, q: ReportQuery): Promise<BookingFileRow[]> {
  return getDb(
    env,
  ).all<BookingFileRow>(sql`select b.id as id, b.status as status, c.name as cabin, b.check_in as checkIn, b.check_out as checkOut,
      b.nights as nights, b.guests as guests, b.total as total, coalesce(${linesSum(sql`b`, sql`('tax')`)}, 0) as tax,
      ${paidOf(sql`b`)} as paid, ${refundedOf(sql`b`)} as refunded,
      coalesce((select group_concat(p.id, ', ') from payments p where p.booking_id = b.id and p.status = 'succeeded'), '') as paymentIds,
      coalesce((select group_concat(p.refund_id, ', ') from payments p where p.booking_id = b.id and p.refund_id is not null and coalesce(p.refund_status, '') <> 'canceled'), '') as refundIds,
      b.channel as channel, b.source as source, strftime('%Y-%m-%d %H:%M', b.created_at, '+3 hours') as createdAt, b.name as name, b.phone as phone, b.email as email
    from bookings b join cabins c on c.id = b.cabin_id
    where b.check_in >= ${q.from} and b.check_in <= ${q.to}
    order by b.check_in, b.id`);
}
