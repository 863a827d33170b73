// The schedule's messages about cleaning (worker/notify/cleaning.ts): the owner's alert when a
// cabin is still not clean an hour before an arrival, and a cleaner's list of the day.

/** The outbox kinds of these messages: one row per event and channel (outbox_daily_event_idx). */
export const NOT_CLEAN_KIND = 'not-clean';
export const CLEANER_DAY_KIND = 'cleaner-day';

/** How long before the check-in time a cabin not yet clean is alerted. */
export const NOT_CLEAN_LEAD_MINUTES = 60;
/** From this time of day in Moscow the cleaners' lists of the day go out. */
export const CLEANER_LIST_TIME = '08:00';
/** How long a cleaner's link to the bot works. */
export const CLEANER_LINK_TTL_MS = 30 * 60_000;

export const CLEANING_TEXTS = {
  notCleanSubject: 'Домик не убран',
  /** {cabin}, {time}, {guest}, {dates}, {tasks}. */
  notClean: 'Домик «{cabin}» ещё не убран, а в {time} заезд: {guest}, {dates}. Задача уборки: {tasks}',
  listSubject: 'Уборки на сегодня',
  /** The head of a cleaner's list: {date}. */
  listHead: 'Задачи на {date}:',
  /** A task's deadline: the next arrival's check-in, or the day's end. */
  until: 'до {time}',
  untilDayEnd: 'до конца дня',
  /** The bot's answer to a cleaner whose chat it tied. */
  linked: 'Готово: каждое утро сюда будет приходить список уборок на день.',
  linkUnknown: 'Ссылка устарела. Откройте «Сегодня» и нажмите кнопку ещё раз.',
} as const;

/** «14:00» minus `minutes`, as HH:MM (never before midnight). */
export function minusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = Math.max(0, h * 60 + m - minutes);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

export const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all);
