// The demo calendar, so the booking card and the admin's calendar are not empty on a fresh
// start («Done when»): seasons (a dear summer, a cheaper winter), a few nights the
// owner closed by hand and a feed «Авито (демо)» that `npm start` itself serves. Dates are
// counted from today in Moscow, so the demo never goes stale.
import { addDays, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import type { SeasonToStore } from '../../schema/calendar.ts';
import { exportCalendar, type BusyEvent } from '../../worker/calendar/ical.ts';

const round500 = (n: number) => Math.round(n / 500) * 500;

/** The next summer's high season, [15 June, 1 September). */
function summer(today: IsoDate): { start: IsoDate; end: IsoDate } {
  const year = Number(today.slice(0, 4)) + (today >= `${today.slice(0, 4)}-06-15` ? 1 : 0);
  return { start: `${year}-06-15`, end: `${year}-09-01` };
}

/** Seasons for the demo cabin at `index` (0-based) with this base price. */
export function demoSeasons(index: number, pricePerNight: number, today = todayInMoscow()): SeasonToStore[] {
  if (index >= 8) return [];
  const high = summer(today);
  const seasons: SeasonToStore[] = [];
  // Every other of the first cabins is cheaper until spring: their cards say «от N ₽».
  if (index % 2 === 0) {
    const end = [addDays(today, 100), high.start].sort()[0]!;
    if (end > addDays(today, 7))
      seasons.push({ start: today, end, pricePerNight: round500(pricePerNight * 0.8), minNights: 1 });
  }
  seasons.push({ ...high, pricePerNight: round500(pricePerNight * 1.4), minNights: 3 });
  return seasons;
}

/** Nights the owner closed by hand, per demo cabin index. */
export function demoBlocks(index: number, today = todayInMoscow()): { start: IsoDate; end: IsoDate; note: string }[] {
  if (index === 0) return [{ start: addDays(today, 3), end: addDays(today, 6), note: 'Бронь по телефону' }];
  if (index === 1) return [{ start: addDays(today, 10), end: addDays(today, 13), note: 'Ремонт крыльца' }];
  return [];
}

export const DEMO_FEED_NAME = 'Авито (демо)';
export const DEMO_FEED_PATH = '/demo/avito.ics';

/** The stays the demo feed reports for the first cabin. */
export function demoFeedEvents(today = todayInMoscow()): BusyEvent[] {
  return [
    { uid: 'avito-demo-1@avito.ru', start: addDays(today, 14), end: addDays(today, 18) },
    { uid: 'avito-demo-2@avito.ru', start: addDays(today, 25), end: addDays(today, 27) },
  ];
}

/** The demo feed as Avito would serve it. */
export const demoFeedIcs = (today = todayInMoscow()) => exportCalendar(demoFeedEvents(today), Date.now());

/**
 * The demo's guests: for the second cabin a request the owner confirmed and one still waiting; for
 * the third and fourth a guest leaving today and one arriving today, and for the fifth one staying,
 * so «Сегодня» is not empty on a fresh start. Tomorrow has its own arrival (the third cabin, once
 * cleaned) and departure (the fifth), so a demo started late in the evening still has a day to
 * show after midnight in Moscow.
 */
export function demoBookings(index: number, today = todayInMoscow()) {
  const guest = (checkIn: number, checkOut: number, name: string, phone: string, guests: number) => ({
    checkIn: addDays(today, checkIn),
    checkOut: addDays(today, checkOut),
    guests,
    name,
    phone,
    email: '',
    comment: '',
    channel: 'phone' as const,
    status: 'confirmed' as const,
  });
  if (index === 2)
    return [guest(-3, 0, 'Ахмед Алиев', '+7 928 555-10-20', 4), guest(1, 4, 'Ольга Петрова', '+7 917 444-12-34', 5)];
  if (index === 3) return [guest(0, 3, 'Елена Кузнецова', '+7 903 222-33-44', 2)];
  if (index === 4) return [guest(-1, 1, 'Руслан Магомедов', '+7 988 777-66-55', 3)];
  if (index !== 1) return [];
  return [
    {
      checkIn: addDays(today, 20),
      checkOut: addDays(today, 23),
      guests: 2,
      name: 'Мадина Гасанова',
      phone: '+7 928 123-45-67',
      email: 'madina@example.ru',
      comment: 'Приедем на машине',
      channel: 'whatsapp' as const,
      status: 'confirmed' as const,
    },
    {
      checkIn: addDays(today, 30),
      checkOut: addDays(today, 34),
      guests: 3,
      name: 'Игорь Смирнов',
      phone: '+7 916 765-43-21',
      email: '',
      comment: 'Можно ли раньше заехать?',
      channel: 'phone' as const,
      status: 'new' as const,
    },
  ];
}
