// The booking card's calendar: react-day-picker in Russian, Monday first,
// one month at a time. It draws what site/lib/stay-picker.ts decides: busy nights struck out,
// a check-out allowed on the morning the next stay begins, the season's minimum stay.
// Loaded on demand, when the visitor opens the dates, with its own styles.
import { DayPicker } from 'react-day-picker';
import { ru } from 'react-day-picker/locale';
import dayPickerCss from 'react-day-picker/style.css?inline';
import calendarCss from './StayCalendar.css?inline';
import type { IsoDate } from '../../schema/dates.ts';
import { selectable, type StayRules, type StaySelection } from '../lib/stay-picker.ts';
import { adoptStyles } from './adopt-styles.ts';

// The calendar's styles come with its code, never in the page's HTML; ours after the library's.
adoptStyles(dayPickerCss);
adoptStyles(calendarCss);

// The widget speaks JS Dates; a stay speaks `YYYY-MM-DD`. The two meet here only, on the
// browser's own calendar date at noon, so no time zone can move a day.
const toDay = (d: Date): IsoDate =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const fromDay = (day: IsoDate): Date => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 12);
};

interface Props {
  rules: StayRules;
  selection: StaySelection;
  onPick: (day: IsoDate) => void;
}

export default function StayCalendar({ rules, selection, onPick }: Props) {
  const { checkIn, checkOut } = selection;
  return (
    <DayPicker
      className="stay-calendar"
      mode="range"
      locale={ru}
      weekStartsOn={1}
      showOutsideDays={false}
      today={fromDay(rules.today)}
      defaultMonth={fromDay(checkIn ?? rules.today)}
      startMonth={fromDay(rules.today)}
      endMonth={fromDay(rules.to)}
      selected={checkIn ? { from: fromDay(checkIn), to: checkOut ? fromDay(checkOut) : undefined } : undefined}
      onSelect={(_range, day) => onPick(toDay(day))}
      disabled={(date) => !selectable(rules, selection, toDay(date))}
      modifiers={{ busy: (date) => rules.isBusy(toDay(date)) }}
      modifiersClassNames={{ busy: 'stay-calendar__busy' }}
    />
  );
}
