// Overbooking caught the minute it happens: nights claimed by two stays, ours
// and a channel's or two channels', found after every import and every read of Avito, shown in
// red on «Шахматка» and alerted to the owner once each. Nothing is dropped or cancelled by itself:
// which guest stays is the owner's call.
import type { Conflict, ConflictStay } from '../../schema/channels.ts';
import { formatDate, formatPrice } from '../../schema/format.ts';
import type { Bindings } from '../env.ts';
import { notifyOwner } from '../notify/owner.ts';
import { listCabinNames } from '../queries/cabins.ts';
import { busyRanges, horizon, type SourcedRange } from '../queries/calendar.ts';
import { claimNewConflicts } from '../queries/channels.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
type Claim = SourcedRange & { cabinId: number };

/** Where a stay came from: two stays of one origin never conflict (a feed's own overlapping events). */
function originOf(r: Claim): string | null {
  if (r.source === 'block') return null; // the owner's own hand: not a second guest
  if (r.source === 'booking' || r.source === 'hold') return 'site';
  if (r.source === 'feed') return `feed-${r.feedId}`;
  return `channel-${r.label}`;
}

const stayOf = (r: Claim): ConflictStay => ({
  kind: r.source as ConflictStay['kind'],
  label: r.label,
  start: r.start,
  end: r.end,
  ...(r.source === 'booking' || r.source === 'hold' ? { bookingId: r.id } : {}),
  ...(r.source === 'channel' ? { guests: r.guests, price: r.price } : {}),
});

/** A conflict's lasting name: the cabin and both stays' keys, so it is alerted once however often it is found. */
export const conflictKey = (cabinId: number, a: Claim, b: Claim) => [cabinId, ...[a.key, b.key].sort()].join('|');

/** The ranges in conflict among these (one cabin or many), each pair once, with its key. */
export function conflictsAmong(
  ranges: Claim[],
): { cabinId: number; start: string; end: string; a: Claim; b: Claim; key: string }[] {
  const byCabin = new Map<number, Claim[]>();
  for (const r of ranges) if (originOf(r)) byCabin.set(r.cabinId, [...(byCabin.get(r.cabinId) ?? []), r]);
  const out: ReturnType<typeof conflictsAmong> = [];
  for (const [cabinId, list] of byCabin) {
    const sorted = [...list].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j]!.start < sorted[i]!.end; j++) {
        const [a, b] = [sorted[i]!, sorted[j]!];
        if (originOf(a) === originOf(b)) continue;
        out.push({
          cabinId,
          start: b.start,
          end: a.end < b.end ? a.end : b.end,
          a,
          b,
          key: conflictKey(cabinId, a, b),
        });
      }
    }
  }
  return out.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.cabinId - y.cabinId));
}

/** Every conflict over the calendar's horizon (GET /admin/conflicts), with its key. */
export async function findConflicts(env: DbEnv, cabinId?: number): Promise<(Conflict & { key: string })[]> {
  const { from, to } = horizon();
  const [ranges, names] = await Promise.all([busyRanges(env, from, to, cabinId), listCabinNames(env)]);
  return conflictsAmong(ranges).map((c) => ({
    key: c.key,
    cabinId: c.cabinId,
    cabinName: names.get(c.cabinId) ?? '',
    start: c.start,
    end: c.end,
    stays: [stayOf(c.a), stayOf(c.b)],
  }));
}

function stayText(s: ConflictStay): string {
  const dates = `${formatDate(s.start)} — ${formatDate(s.end)}`;
  if (s.kind === 'booking' || s.kind === 'hold')
    return `бронирование №${s.bookingId} на сайте (${s.label || 'без имени'}), ${dates}`;
  if (s.kind === 'channel')
    return `${s.label}: ${dates}${s.guests ? `, гостей: ${s.guests}` : ''}${s.price ? `, ${formatPrice(s.price)}` : ''}`;
  return `календарь «${s.label}», ${dates}`;
}

/**
 * Finds the conflicts and alerts the owner of the new ones, by every channel set (MAX, Telegram,
 * e-mail), in one message. Answers every conflict there is. A conflict that is resolved and comes
 * back is new again.
 */
export async function alertNewConflicts(env: Bindings): Promise<(Conflict & { key: string })[]> {
  const all = await findConflicts(env);
  const fresh = await claimNewConflicts(
    env,
    all.map((c) => c.key),
  );
  const news = all.filter((c) => fresh.has(c.key));
  if (news.length) {
    const lines = news.flatMap((c) => [
      `«${c.cabinName}», ночи ${formatDate(c.start)} — ${formatDate(c.end)}:`,
      ...c.stays.map((s) => `• ${stayText(s)}`),
      '',
    ]);
    const site = env.SITE_URL ? [`Шахматка: ${env.SITE_URL.replace(/\/$/, '')} → админ-панель → «Календарь»`] : [];
    await notifyOwner(env, {
      subject:
        news.length === 1
          ? `Двойное бронирование: «${news[0]!.cabinName}», ${formatDate(news[0]!.start)}`
          : `Двойные бронирования: ${news.length}`,
      text: [
        ...lines,
        'Ничего не отменено автоматически: свяжитесь с гостями и решите, кто заселится, затем отмените лишнее бронирование на его площадке.',
        ...site,
      ].join('\n'),
    });
  }
  return all;
}
