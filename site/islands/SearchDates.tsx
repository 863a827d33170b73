// The search form's dates once the visitor reaches for them: the booking
// card's own range picker (StayCalendar: Russian, Monday first, no past days, at most 365 days
// ahead) in place of the browser's date fields. Until then the form is plain HTML and works as
// it is; whatever was typed or picked before this woke is read from the fields and kept. The
// fields stay the form's values (a plain GET), this only fills them.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { addDays, isIsoDate, todayInMoscow } from '../../schema/dates.ts';
import { SEARCH_HORIZON_DAYS } from '../../schema/search-options.ts';
import { NO_STAY, pickDay, stayRules, type StaySelection } from '../lib/stay-picker.ts';
import { useIslandReady } from './useIslandReady.ts';
import calendarCss from './SearchDates.css?inline';
import { adoptStyles } from './adopt-styles.ts';

adoptStyles(calendarCss);

const StayCalendar = lazy(() => import('./StayCalendar.tsx'));

export default function SearchDates({ form }: { form: HTMLFormElement }) {
  const [open, setOpen] = useState(false);
  const [stay, setStay] = useState<StaySelection>(NO_STAY);
  // Every day from today (Moscow) to 365 days ahead may start a stay; nothing is busy here.
  const rules = useMemo(() => {
    const today = todayInMoscow();
    return stayRules({
      from: today,
      to: addDays(today, SEARCH_HORIZON_DAYS + 1),
      busy: [],
      seasons: [],
      pricePerNight: 0,
      minNights: 1,
    });
  }, []);
  const fields = () =>
    [
      form.querySelector<HTMLInputElement>('[name="checkIn"]'),
      form.querySelector<HTMLInputElement>('[name="checkOut"]'),
    ] as const;

  useEffect(() => {
    const [checkIn, checkOut] = fields();
    if (!checkIn || !checkOut) return;
    // Dates chosen before the picker woke are kept.
    const from = isIsoDate(checkIn.value) ? checkIn.value : null;
    setStay({
      checkIn: from,
      checkOut: from && isIsoDate(checkOut.value) && checkOut.value > from ? checkOut.value : null,
    });
    const show = (e: Event) => {
      e.preventDefault();
      setOpen(true);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') show(e);
    };
    for (const input of [checkIn, checkOut]) {
      // The browser's own picker gives way to ours; the field still holds the value it sends.
      input.readOnly = true;
      input.setAttribute('aria-haspopup', 'dialog');
      input.addEventListener('click', show);
      input.addEventListener('keydown', onKey);
    }
    // A tap that woke the picker opens it.
    if (document.activeElement === checkIn || document.activeElement === checkOut) setOpen(true);
    return () => {
      for (const input of [checkIn, checkOut]) {
        input.removeEventListener('click', show);
        input.removeEventListener('keydown', onKey);
      }
    };
  }, [form]);
  useIslandReady('search-dates');

  function pick(day: string) {
    const next = pickDay(rules, stay, day);
    setStay(next);
    const [checkIn, checkOut] = fields();
    if (checkIn) checkIn.value = next.checkIn ?? '';
    if (checkOut) checkOut.value = next.checkOut ?? '';
    if (next.checkIn && next.checkOut) setOpen(false);
  }

  return (
    <>
      {open && (
        <div className="search-form__calendar" role="dialog" aria-label="Даты поездки">
          <Suspense fallback={<p className="hint">Загружаем календарь…</p>}>
            <StayCalendar rules={rules} selection={stay} onPick={pick} />
          </Suspense>
          <p className="hint" aria-live="polite">
            {stay.checkIn ? (stay.checkOut ? '' : 'Выберите дату выезда') : 'Выберите дату заезда'}
          </p>
          <button type="button" className="btn btn--secondary" onClick={() => setOpen(false)}>
            Закрыть
          </button>
        </div>
      )}
    </>
  );
}
