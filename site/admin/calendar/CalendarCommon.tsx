// What the sections of «Календарь» share: the cabin's calendar as the API answers it, dates in
// Russian and Moscow time.
import { BLOCK_NOTE_MAX } from '../../../schema/calendar.ts';
import { nightsBetween } from '../../../schema/dates.ts';
import { formatNights, formatStayDates } from '../../../schema/format.ts';
import { call, client } from '../client.ts';

/** «Заметка» of nights closed by hand, where they are closed («Занято» and «Шахматка»). */
export function BlockNoteField({
  id,
  value,
  onChange,
  placeholder,
  autofocus,
}: {
  id: string;
  value: string;
  onChange: (note: string) => void;
  placeholder?: string;
  /** The field a dialog focuses first. */
  autofocus?: boolean;
}) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        Заметка (видите только вы)
      </label>
      <input
        id={id}
        className="input"
        maxLength={BLOCK_NOTE_MAX}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        data-autofocus={autofocus || undefined}
      />
    </div>
  );
}

export const loadCalendar = (id: number) =>
  call(client().admin.cabins[':id'].calendar.$get({ param: { id: String(id) } }));
export type Calendar = Awaited<ReturnType<typeof loadCalendar>>;
export const loadDatePrices = (id: number) =>
  call(client().admin.cabins[':id']['date-prices'].$get({ param: { id: String(id) } }));

/** The sections whose unsaved rows would be lost when another cabin is chosen. */
export type DirtySection = 'seasons' | 'datePrices' | 'feeds';
/** How the owner names each of those sections. */
export const SECTION_NAMES: Record<DirtySection, string> = {
  seasons: '«Сезонные цены»',
  datePrices: '«Цены на отдельные даты»',
  feeds: '«Импорт календарей»',
};
export type OnDirty = (section: DirtySection, dirty: boolean) => void;

/** Nights [start, end) in Russian, `end` being the departure day: «5–8 марта 2027, 3 ночи». */
export const rangeText = (start: string, end: string) =>
  `${formatStayDates(start, end)}, ${formatNights(nightsBetween(start, end))}`;

/** A moment as the owner reads it on the coast: «24 ноября, 17:53 (мск)». */
const moscow = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
});
export const moscowTime = (iso: string) => `${moscow.format(new Date(iso))} (мск)`;
