// The booking card's calendar: react-day-picker in Russian, Monday first,
// one month at a time. It draws what site/lib/stay-picker.ts decides: busy nights struck out,
// a check-out allowed on the morning the next stay begins, the season's minimum stay.
// Loaded on demand, when the visitor opens the dates, with its own styles.
import { memo, useEffect, useMemo, useRef } from 'react';
import { DayPicker, labelDayButton, type DayButtonProps, type Formatters, type Labels } from 'react-day-picker';
import { ru } from 'react-day-picker/locale';
import dayPickerCss from 'react-day-picker/style.css?inline';
import calendarCss from './StayCalendar.css?inline';
import { addDays, type IsoDate } from '../../schema/dates.ts';
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

// The widget draws every day again at each tap, formatting each one's number and spoken name with
// date-fns: on a slow phone a good part of that drawing. A day's number is its date; its spoken
// name, in Russian from the locale, is worked out once and kept.
const formatters: Partial<Formatters> = { formatDay: (date) => String(date.getDate()) };
const spoken = new Map<string, string>();
const russian = ru.labels?.labelDayButton;
const speak = typeof russian === 'function' ? russian : labelDayButton;
const labels: Partial<Labels> = {
  labelDayButton: (date, modifiers, options, dateLib) => {
    const key = `${toDay(date)}${modifiers.today ? 't' : ''}${modifiers.selected ? 's' : ''}`;
    let label = spoken.get(key);
    if (label === undefined) {
      label = speak(date, modifiers, options, dateLib);
      spoken.set(key, label);
    }
    return label;
  },
};

// A tap on a day leaves the focus where it was. Moving it would draw the month twice more before
// the tap's own drawing (once as the last day loses it, once as this one takes it), which a slow
// phone feels; the keyboard still moves it from day to day, as the widget's own button does.
let tapping = false;
function DayButton({ day: _day, modifiers, ...button }: DayButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (modifiers.focused && !tapping) ref.current?.focus();
  }, [modifiers.focused]);
  return (
    <button
      ref={ref}
      {...button}
      onPointerDown={() => {
        tapping = true;
      }}
      onMouseDown={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        tapping = false;
        button.onKeyDown?.(e);
      }}
    />
  );
}
const components = { DayButton };

interface Props {
  rules: StayRules;
  selection: StaySelection;
  onPick: (day: IsoDate) => void;
}

function StayCalendar({ rules, selection, onPick }: Props) {
  const { checkIn, checkOut } = selection;
  const { today, end, firstFree } = useMemo(() => {
    // The calendar opens on the month of the first day a stay can begin: on the last day of a
    // month that is taken, this month would show no day to tap, nor one the keyboard can reach.
    let first = rules.today;
    while (first < rules.to && !rules.canCheckIn(first)) first = addDays(first, 1);
    return {
      today: fromDay(rules.today),
      end: fromDay(rules.to),
      firstFree: fromDay(first),
    };
  }, [rules]);
  return (
    <DayPicker
      className="stay-calendar"
      mode="range"
      locale={ru}
      formatters={formatters}
      labels={labels}
      weekStartsOn={1}
      showOutsideDays={false}
      components={components}
      today={today}
      defaultMonth={checkIn ? fromDay(checkIn) : firstFree}
      startMonth={today}
      endMonth={end}
      selected={checkIn ? { from: fromDay(checkIn), to: checkOut ? fromDay(checkOut) : undefined } : undefined}
      onSelect={(_range, day) => onPick(toDay(day))}
      disabled={(date) => !selectable(rules, selection, toDay(date))}
      modifiers={{ busy: (date) => rules.isBusy(toDay(date)) }}
      modifiersClassNames={{ busy: 'stay-calendar__busy' }}
    />
  );
}

// Drawn again only when its rules, its stay or its callback change: not when the card under it
// draws the price and the form a frame after a tap.
export default memo(StayCalendar);
