// «Цены по дням»: what each night of a month costs, as a guest will be charged for it — computed
// with schema/pricing.ts nightPrice from the same rules the server prices with (the cabin's price,
// weekend price and weekend nights, the seasons and the single dates). Weekend and single-date
// prices are marked apart, by colour and by words for screen readers.
import { useState } from 'react';
import { addDays, addMonths, isoWeekday, todayInMoscow, type IsoDate } from '../../../schema/dates.ts';
import { formatMonthYear, formatNumber, formatPrice, MONTHS_GENITIVE } from '../../../schema/format.ts';
import { nightPrice, WEEKEND_NIGHTS_DEFAULT, type DatePrice, type SeasonRates } from '../../../schema/pricing.ts';
import { CALENDAR_INPUT_MONTHS } from '../../../schema/calendar.ts';
import { Icon } from '../ui/Icon.tsx';
import { WEEKDAYS, weekendNightsText } from '../ui/weekdays.ts';

/** The cabin's own rates as GET /admin/cabins gives them. */
export type CabinPrices = {
  pricePerNight: number;
  weekendPricePerNight: number | null;
  weekendNights: number[] | null;
};

export type NightKind = 'date' | 'weekend' | 'season' | 'base';
const KIND_TEXT: Record<NightKind, string> = {
  date: 'цена на эту дату',
  weekend: 'цена выходных',
  season: 'цена сезона',
  base: 'обычная цена',
};

/** A night's price and the rule it comes from. */
export function pricedNight(
  night: IsoDate,
  cabin: CabinPrices,
  seasons: readonly SeasonRates[],
  datePrices: readonly DatePrice[],
): { price: number; kind: NightKind } {
  const weekendNights: readonly number[] = cabin.weekendNights ?? WEEKEND_NIGHTS_DEFAULT;
  // nightPrice reads only these fields; the others do not change a night's price.
  const rules = {
    cabin: {
      pricePerNight: cabin.pricePerNight,
      weekendPricePerNight: cabin.weekendPricePerNight,
      weekendNights,
      minNights: 1,
      baseGuests: 1,
      extraGuestPerNight: 0,
    },
    seasons,
    datePrices,
  };
  const price = nightPrice(night, rules);
  if (datePrices.some((d) => d.date === night)) return { price, kind: 'date' };
  const season = seasons.find((s) => s.start <= night && night < s.end);
  const weekendPrice = season ? season.weekendPricePerNight : cabin.weekendPricePerNight;
  if (weekendNights.includes(isoWeekday(night)) && weekendPrice != null) return { price, kind: 'weekend' };
  return { price, kind: season ? 'season' : 'base' };
}

/** A price short enough for a phone's day cell: «12 500», «125 т.». */
const cellPrice = (n: number) => (n >= 100_000 ? `${formatNumber(Math.round(n / 1000))}\u00a0т.` : formatNumber(n));

const monthStart = (date: IsoDate) => `${date.slice(0, 7)}-01`;

export function CalendarPrices({
  cabin,
  seasons,
  datePrices,
}: {
  cabin: CabinPrices;
  seasons: readonly SeasonRates[];
  datePrices: readonly DatePrice[];
}) {
  const today = todayInMoscow();
  const first = monthStart(today);
  const last = monthStart(addMonths(today, CALENDAR_INPUT_MONTHS));
  const [month, setMonth] = useState(first);
  const m = Number(month.slice(5, 7));
  const title = formatMonthYear(month);

  // The weeks of the month, Monday first; days of the months around it stay empty.
  const days: (IsoDate | null)[] = Array.from({ length: isoWeekday(month) - 1 }, () => null);
  for (let d = month; d.slice(0, 7) === month.slice(0, 7); d = addDays(d, 1)) days.push(d);
  while (days.length % 7) days.push(null);
  const weeks = Array.from({ length: days.length / 7 }, (_, w) => days.slice(w * 7, w * 7 + 7));

  const weekendNights: readonly number[] = cabin.weekendNights ?? WEEKEND_NIGHTS_DEFAULT;

  return (
    <section className="group calendar-section price-month" aria-labelledby="price-month-title">
      <h3 className="group__title" id="price-month-title">
        Цены по дням
      </h3>
      <p className="hint">
        Сколько стоит каждая ночь (дата — день заезда) по цене домика, выходным ({weekendNightsText(weekendNights)}),
        сезонам и отдельным датам. Меняются они в «Домиках» и в разделах ниже.
      </p>
      <div className="price-month__nav">
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          disabled={month <= first}
          onClick={() => setMonth(monthStart(addMonths(month, -1)))}
        >
          <Icon name="chevron-left" label="Предыдущий месяц" />
        </button>
        <p className="price-month__title" aria-live="polite">
          {title}
        </p>
        <button
          type="button"
          className="btn btn--secondary btn--icon"
          disabled={month >= last}
          onClick={() => setMonth(monthStart(addMonths(month, 1)))}
        >
          <Icon name="chevron-right" label="Следующий месяц" />
        </button>
      </div>
      <table className="price-month__table">
        <caption className="visually-hidden">Цены на ночи: {title}</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d.day} scope="col" className={weekendNights.includes(d.day) ? 'is-weekend' : undefined}>
                <abbr title={d.name}>{d.short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((night, i) => {
                if (!night) return <td key={i} className="price-month__empty" />;
                const day = Number(night.slice(8));
                const when = `${day} ${MONTHS_GENITIVE[m - 1]}`;
                if (night < today) {
                  return (
                    <td key={night} data-date={night} className="price-month__past">
                      <span className="price-month__day" aria-hidden="true">
                        {day}
                      </span>
                      <span className="visually-hidden">{when}: прошло</span>
                    </td>
                  );
                }
                const { price, kind } = pricedNight(night, cabin, seasons, datePrices);
                return (
                  <td
                    key={night}
                    data-date={night}
                    data-kind={kind}
                    className={`price-month__night price-month__night--${kind}${night === today ? ' is-today' : ''}`}
                  >
                    <span className="price-month__day" aria-hidden="true">
                      {day}
                    </span>
                    <span className="price-month__price" aria-hidden="true">
                      {cellPrice(price)}
                    </span>
                    <span className="visually-hidden">
                      {when}: {formatPrice(price)}, {KIND_TEXT[kind]}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="price-month__legend" aria-label="Обозначения">
        <li>
          <span className="price-month__swatch price-month__night--base" aria-hidden="true" /> Обычная цена:{' '}
          {formatPrice(cabin.pricePerNight)}
        </li>
        {cabin.weekendPricePerNight != null || seasons.some((s) => s.weekendPricePerNight != null) ? (
          <li>
            <span className="price-month__swatch price-month__night--weekend" aria-hidden="true" /> Выходные
            {cabin.weekendPricePerNight != null ? `: ${formatPrice(cabin.weekendPricePerNight)}` : ''}
          </li>
        ) : null}
        {seasons.length > 0 && (
          <li>
            <span className="price-month__swatch price-month__night--season" aria-hidden="true" /> Сезон
          </li>
        )}
        {datePrices.length > 0 && (
          <li>
            <span className="price-month__swatch price-month__night--date" aria-hidden="true" /> Отдельная дата
          </li>
        )}
      </ul>
    </section>
  );
}
