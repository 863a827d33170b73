// The days of the week as the panel shows them: ISO numbers (1 Monday … 7 Sunday, as
// schema/dates.ts isoWeekday gives them), a short name for the eye and a full one for screen readers.

export const WEEKDAYS = [
  { day: 1, short: 'Пн', name: 'понедельник' },
  { day: 2, short: 'Вт', name: 'вторник' },
  { day: 3, short: 'Ср', name: 'среда' },
  { day: 4, short: 'Чт', name: 'четверг' },
  { day: 5, short: 'Пт', name: 'пятница' },
  { day: 6, short: 'Сб', name: 'суббота' },
  { day: 7, short: 'Вс', name: 'воскресенье' },
] as const;

/** The weekday of an ISO number: WEEKDAYS[day - 1]. */
export const weekday = (day: number) => WEEKDAYS[day - 1]!;

/** Which nights count as the weekend, in words: «пятница и суббота». */
export function weekendNightsText(days: readonly number[]): string {
  const names = [...days].sort((a, b) => a - b).map((d) => weekday(d).name);
  if (names.length === 0) return 'нет';
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} и ${names.at(-1)}`;
}
