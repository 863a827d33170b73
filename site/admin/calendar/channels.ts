// «Площадки»'s data apart from React: every cabin against every channel (GET /api/admin/channels),
// the conflicts between stays, what «Синхронизировать сейчас» answers, and how each is said to
// the owner: where a stay came from, what a sync came to.
import type { ChannelResult, Conflict, ConflictStay, FeedResult } from '../../../schema/channels.ts';
import { formatGuests, formatPrice } from '../../../schema/format.ts';
import { call, client } from '../client.ts';

export type { ChannelResult, Conflict, ConflictStay };

export const loadChannels = () => call(client().admin.channels.$get());
export type Channels = Awaited<ReturnType<typeof loadChannels>>;
export type ChannelsCabin = Channels['cabins'][number];

export const loadConflicts = (): Promise<Conflict[]> => call(client().admin.conflicts.$get());

/** `later`: listings left for the schedule's next minutes (a Worker's request may send only so many). */
export type SyncAnswer = { avito: ChannelResult[]; feeds: FeedResult[]; conflicts: Conflict[]; later?: number };

export const syncChannels = async (): Promise<SyncAnswer> =>
  (await call(client().admin.channels.sync.$post())) as SyncAnswer;

/** «2 гостя, 15 000 ₽»: what a platform told about its booking, the parts it gave. */
export function guestsAndPrice(s: { guests?: number | null; price?: number | null }): string {
  return [s.guests ? formatGuests(s.guests) : '', s.price ? formatPrice(s.price) : ''].filter(Boolean).join(', ');
}

/**
 * Where a stay in conflict came from, as the owner says it: «Бронирование №12 на сайте (Мадина)»,
 * «Авито: 2 гостя, 15 000 ₽», «Календарь «Суточно»».
 */
export function stayOrigin(s: ConflictStay): string {
  if (s.kind === 'booking' || s.kind === 'hold') {
    const who = s.label ? ` (${s.label})` : '';
    return `Бронирование №${s.bookingId} на сайте${s.kind === 'hold' ? ', ждёт оплаты' : ''}${who}`;
  }
  if (s.kind === 'channel') {
    const facts = guestsAndPrice(s);
    return facts ? `${s.label}: ${facts}` : s.label;
  }
  return `Календарь «${s.label}»`;
}

/** A server's sentence continued after a colon: «Не удалось…» → «не удалось…» (not «API», not «Авито»). */
const continued = (text: string) =>
  /^[А-ЯЁ][а-яё]/.test(text) && !text.startsWith('Авито') ? text[0]!.toLowerCase() + text.slice(1) : text;

/** What one exchange with Avito came to: «Бронирований на Авито: 1», «Авито: отправлено занятых периодов: 3», or why not. */
export function avitoResultText(r: ChannelResult): string {
  // «бронирований на Авито: 1» says the channel itself; «отправлено занятых периодов: 3» does not.
  if (r.ok)
    return r.detail?.includes('Авито')
      ? r.detail[0]!.toUpperCase() + r.detail.slice(1)
      : `Авито: ${r.detail ?? 'готово'}`;
  const why = r.error ?? 'не удалось';
  return why.startsWith('Авито') ? why : `Авито: ${continued(why)}`;
}

/** What one feed's read came to. */
export function feedResultText(r: FeedResult): string {
  const name = `Календарь «${r.name}»`;
  if (!r.ok) return `${name}: ${continued(r.error ?? 'не загрузился')}`;
  if (r.notModified) return `${name}: без изменений, занятых периодов: ${r.events}`;
  return `${name}: загружен, занятых периодов: ${r.events}`;
}
