// The booking card's calendar: react-day-picker in Russian, Monday first,
// one month at a time. It draws what site/lib/stay-picker.ts decides: busy nights struck out,
// a check-out allowed on the morning the next stay begins, the season's minimum stay.
// Loaded on demand, when the visitor opens the dates, with its own styles.
import {
  createContext,
  memo,
  useContext,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
} from 'react';
import { DayPicker, labelDayButton, type DayButtonProps, type Formatters, type Labels } from 'react-day-picker';
import { ru } from 'react-day-picker/locale';
import dayPickerCss from 'react-day-picker/style.css?inline';
import calendarCss from './StayCalendar.css?inline';
import { addDays, addMonths, isoWeekday, nightsBetween, type IsoDate } from '../../schema/dates.ts';
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

/**
 * A tap on a day, handed to the calendar's owner with the stay as it is at that moment (the month
 * drawn may still show the one before): false when the day cannot be picked now, or the tap
 * undoes the check-in, so that nothing is to be marked.
 */
type Tap = (day: IsoDate) => boolean;
const TapContext = createContext<Tap>(() => false);

// A tap on a day leaves the focus where it was. Moving it would draw the month twice more before
// the tap's own drawing (once as the last day loses it, once as this one takes it), which a slow
// phone feels; the keyboard still moves it from day to day, as the widget's own button does.
// Nor does a tap go through the widget's own click, which draws the whole month again at once to
// move its focus mark: the day is marked picked here, in this very frame (`data-picked`), and the
// owner's pick draws the month with the new stay after that paint (StayCalendar below).
let tapping = false;
function DayButton({ day, modifiers, ...button }: DayButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const tap = useContext(TapContext);
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
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        if (tap(toDay(day.date))) e.currentTarget.setAttribute('data-picked', '');
      }}
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
  onPick: (day: IsoDate) => unknown;
}

/**
 * The calendar as its stay was a moment ago. A tap paints its day at once (`data-picked`) and
 * whatever the card or the form draw of it; the month, every day's state with the new stay, is
 * drawn in the background after that paint (useDeferredValue): on a slow phone drawing the
 * month took most of the tap's time to paint. The next tap reads the stay from its owner, never
 * from the month, so a tap before the month is drawn again still counts.
 */
function StayCalendar({ rules, selection, onPick }: Props) {
  const shown = useDeferredValue(selection);
  // The month a visitor sees first: the check-in's, else that of the first day a stay can begin
  // (on the last day of a month that is taken, this month would show no day to tap, nor one the
  // keyboard can reach). Read once: the widget reads it when it is first drawn.
  const [opensOn] = useState(() => selection.checkIn ?? firstFree(rules));
  // The month is first drawn a frame after the calendar opens, in the background: the tap that
  // opened it paints at once, a box of the month's own height in its place until then.
  const drawn = useDeferredValue(true, false);
  const now = useRef({ rules, selection, onPick });
  useLayoutEffect(() => {
    now.current = { rules, selection, onPick };
  });
  // One function for the calendar's life, so the month (memo) is not drawn again with each tap.
  const [tap] = useState<Tap>(() => (day: IsoDate) => {
    const { rules, selection, onPick } = now.current;
    if (!selectable(rules, selection, day)) return false;
    onPick(day);
    return !(selection.checkIn === day && !selection.checkOut);
  });
  if (!drawn)
    return (
      <div
        className="stay-calendar stay-calendar--waiting"
        style={{ '--weeks': weeksOf(opensOn) } as CSSProperties}
        aria-hidden="true"
      />
    );
  return (
    <TapContext.Provider value={tap}>
      <Month rules={rules} selection={shown} onPick={tap} opensOn={opensOn} />
    </TapContext.Provider>
  );
}

function firstFree(rules: StayRules): IsoDate {
  let first = rules.today;
  while (first < rules.to && !rules.canCheckIn(first)) first = addDays(first, 1);
  return first;
}

/** How many weeks, Monday first, the month of `day` takes on the calendar (4 to 6). */
function weeksOf(day: IsoDate): number {
  const first = `${day.slice(0, 8)}01` as IsoDate;
  return Math.ceil((isoWeekday(first) - 1 + nightsBetween(first, addMonths(first, 1))) / 7);
}

const Month = memo(function Month({ rules, selection, onPick, opensOn }: Props & { opensOn: IsoDate }) {
  const { checkIn, checkOut } = selection;
  const root = useRef<HTMLDivElement>(null);
  // Drawn with the stay: no day stays marked by its tap alone.
  useLayoutEffect(() => {
    for (const day of root.current?.querySelectorAll('[data-picked]') ?? []) day.removeAttribute('data-picked');
  });
  const { today, end, month } = useMemo(
    () => ({ today: fromDay(rules.today), end: fromDay(rules.to), month: fromDay(opensOn) }),
    [rules, opensOn],
  );
  return (
    <div ref={root} style={{ display: 'contents' }}>
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
        defaultMonth={month}
        startMonth={today}
        endMonth={end}
        selected={checkIn ? { from: fromDay(checkIn), to: checkOut ? fromDay(checkOut) : undefined } : undefined}
        // Never called now (a tap goes to the day's own button), but it keeps the widget
        // controlled: without it, the widget keeps a stay of its own and ignores `selected`.
        onSelect={(_range, day) => onPick(toDay(day))}
        disabled={(date) => !selectable(rules, selection, toDay(date))}
        modifiers={{ busy: (date) => rules.isBusy(toDay(date)) }}
        modifiersClassNames={{ busy: 'stay-calendar__busy' }}
      />
    </div>
  );
});

// Drawn again only when its rules or its stay change: not when the card under it draws the price
// and the form a frame after a tap.
export default memo(StayCalendar);
