// The payment link the owner sends for a request, also to the guest's messenger.
import { sql } from 'drizzle-orm';
import type { Booking } from '../../schema/tables.ts';
import { telegramGuestText } from '../../schema/telegram.ts';
import type { Bindings } from '../env.ts';
import { getDb } from '../lib/db.ts';
import { keepWhen, reachOf, sendKept, statementsOf } from '../transitions/messages.ts';

/**
 * The payment link also goes to the guest's Telegram chat or MAX dialog, if they tied one on their
 * page: a few words and the page's link, where «Вернуться к оплате» is; kept in the outbox once per
 * hold (a new link is a new hold). By e-mail it goes in the owner's own reply.
 */
export async function sendPayLink(env: Bindings, b: Booking, cabinName: string, origin: string) {
  const reach = await reachOf(env);
  if (!b.guestToken || (!reach.telegram && !reach.max)) return;
  const stay = { cabinName, checkIn: b.checkIn, checkOut: b.checkOut, guestToken: b.guestToken };
  const kept = keepWhen(
    env,
    sql`1`,
    [
      {
        to: 'guest',
        bookingId: b.id,
        kind: 'paylink',
        event: b.holdUntil ?? '',
        recipient: '',
        subject: '',
        text: '',
        telegram: telegramGuestText('paylink', stay, origin),
      },
    ],
    reach,
  );
  const statements = statementsOf(kept);
  if (statements.length === 0) return;
  const results = (await getDb(env).batch(statements as never)) as { id: number; recipient?: string | null }[][];
  await sendKept(env, kept, results, reach);
}
