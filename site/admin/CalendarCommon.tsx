// What the sections of «Календарь» share: the cabin's calendar as the API answers it, dates in
// Russian, Moscow time, and how a failed call is told to the owner.
import { nightsBetween } from '../../schema/dates.ts';
import { formatNights, MONTHS_GENITIVE } from '../lib/format.ts';
import { call, client, describeError, SessionEndedError } from './client.ts';
import { useNotify } from './Notice.tsx';

export const loadCalendar = (id: number) => call(client().admin.cabins[':id'].calendar.$get({ param: { id: String(id) } }));
export type Calendar = Awaited<ReturnType<typeof loadCalendar>>;

/** The sections whose unsaved rows would be lost when another cabin is chosen. */
export type DirtySection = 'seasons' | 'feeds';
export type OnDirty = (section: DirtySection, dirty: boolean) => void;

/** «5–8 марта 2027», «30 марта — 2 апреля 2027», «30 декабря 2026 — 3 января 2027». */
export function datesText(start: string, end: string): string {
  const [y1, m1, d1] = start.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = end.split('-').map(Number) as [number, number, number];
  const month = (m: number) => MONTHS_GENITIVE[m - 1];
  if (y1 === y2 && m1 === m2) return `${d1}–${d2} ${month(m1)} ${y1}`;
  if (y1 === y2) return `${d1} ${month(m1)} — ${d2} ${month(m2)} ${y1}`;
  return `${d1} ${month(m1)} ${y1} — ${d2} ${month(m2)} ${y2}`;
}

/** Nights [start, end) in Russian, `end` being the departure day: «5–8 марта 2027, 3 ночи». */
export const rangeText = (start: string, end: string) => `${datesText(start, end)}, ${formatNights(nightsBetween(start, end))}`;

/** A moment as the owner reads it on the coast: «24 ноября, 17:53 (мск)». */
const moscow = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' });
export const moscowTime = (iso: string) => `${moscow.format(new Date(iso))} (мск)`;

/** Tells the owner what went wrong, with the server's Russian reason; silent when the session ended. */
export function useFailure() {
  const notify = useNotify();
  return (err: unknown, what: string) => {
    if (err instanceof SessionEndedError) return;
    notify.error(describeError(err, what));
  };
}
