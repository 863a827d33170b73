// «Цены на отдельные даты»: a night with a price of its own (New Year's Eve, a holiday), above
// every other rule. Edited as one list and saved at once (PUT …/date-prices, the whole list from
// today); a refused save keeps every row as typed and says the server's words beside the form.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CALENDAR_INPUT_MONTHS } from '../../../schema/calendar.ts';
import { addMonths, isoWeekday, todayInMoscow } from '../../../schema/dates.ts';
import { formatDate, formatPrice } from '../../../schema/format.ts';
import type { OnDirty } from './CalendarCommon.tsx';
import { useFailure } from '../ui/useFailure.ts';
import { call, client, describeError } from '../client.ts';
import { FormFooter } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { numberOf } from '../ui/numbers.ts';
import { weekday } from '../ui/weekdays.ts';

export type DatePrice = { date: string; price: number };
type Row = { key: number; date: string; price: string };

const FAILED = 'Не удалось сохранить цены на даты';

export function CalendarDatePrices({
  cabinId,
  prices,
  onSaved,
  onDirty,
}: {
  cabinId: number;
  prices: DatePrice[];
  onSaved: (prices: DatePrice[]) => void;
  onDirty: OnDirty;
}) {
  const today = todayInMoscow();
  const nextKey = useRef(0);
  // Nights already past price nothing any more, and the server keeps them as they were.
  const toRows = (list: DatePrice[]): Row[] =>
    list.filter((p) => p.date >= today).map((p) => ({ key: nextKey.current++, date: p.date, price: String(p.price) }));
  const [saved, setSaved] = useState(() => toRows(prices));
  const [rows, setRows] = useState(saved);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const notify = useNotify();
  const failed = useFailure();
  const listRef = useRef<HTMLUListElement>(null);

  const plain = (list: Row[]) => JSON.stringify(list.map(({ key: _, ...r }) => r));
  const dirty = plain(rows) !== plain(saved);
  useEffect(() => onDirty('datePrices', dirty), [dirty, onDirty]);
  useEffect(() => () => onDirty('datePrices', false), [onDirty]);

  const set = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  function add() {
    setRows((list) => [...list, { key: nextKey.current++, date: '', price: '' }]);
    // The new row's date field, so the owner types on at once.
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLInputElement>('li:last-child input[type=date]')?.focus(),
    );
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setRefused(null);
    try {
      const body = { prices: rows.map((r) => ({ date: r.date, price: numberOf(r.price) })) };
      const res = await call(
        client().admin.cabins[':id']['date-prices'].$put({ param: { id: String(cabinId) }, json: body }),
      );
      const next = toRows(res.prices);
      setSaved(next);
      setRows(next);
      onSaved(res.prices);
      notify.success('Цены на даты сохранены');
    } catch (err) {
      failed(err, FAILED);
      setRefused(describeError(err, FAILED));
    } finally {
      setBusy(false);
    }
  }

  function discard() {
    setRows(saved);
    setRefused(null);
  }

  const repeated = (i: number) => {
    const r = rows[i]!;
    return r.date !== '' && rows.findIndex((x) => x.date === r.date) !== i;
  };

  return (
    <form className="group calendar-section" onSubmit={save} aria-labelledby="date-prices-title" noValidate>
      <h3 className="group__title" id="date-prices-title">
        Цены на отдельные даты
      </h3>
      <p className="hint">
        Новый год, праздники: цена этой ночи важнее сезона и выходных. Дата — день заезда на эту ночь.
      </p>
      {rows.length === 0 ? (
        <p className="muted">Отдельных цен нет.</p>
      ) : (
        <ul className="season-list date-prices" aria-label="Цены на даты" ref={listRef}>
          {rows.map((r, i) => {
            const price = numberOf(r.price);
            const twice = repeated(i);
            return (
              <li key={r.key} className="season-list__item">
                <fieldset>
                  <legend className="season-list__legend">Дата {i + 1}</legend>
                  <div className="date-prices__row">
                    <div className="field">
                      <label className="label" htmlFor={`date-price-${i}-date`}>
                        Ночь
                      </label>
                      <input
                        id={`date-price-${i}-date`}
                        className="input"
                        type="date"
                        min={today}
                        max={addMonths(today, CALENDAR_INPUT_MONTHS)}
                        value={r.date}
                        aria-invalid={twice}
                        onChange={(e) => set(r.key, { date: e.target.value })}
                      />
                    </div>
                    <div className="field">
                      <label className="label" htmlFor={`date-price-${i}-price`}>
                        Цена, ₽
                      </label>
                      <input
                        id={`date-price-${i}-price`}
                        className="input"
                        type="number"
                        inputMode="numeric"
                        min={0}
                        value={r.price}
                        onChange={(e) => set(r.key, { price: e.target.value })}
                      />
                    </div>
                  </div>
                </fieldset>
                {twice && (
                  <p className="error-text">
                    <Icon name="x" /> Эта дата уже есть в списке выше
                  </p>
                )}
                <div className="season-list__foot">
                  <span className="muted">
                    {r.date && Number.isInteger(price) && price >= 0
                      ? `${nightName(r.date)}: ${formatPrice(price)}`
                      : ''}
                  </span>
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm calendar-remove"
                    onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                  >
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> дату {i + 1}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="btn btn--secondary" onClick={add}>
        <Icon name="plus" /> Добавить дату
      </button>
      <div role="alert" className="form-refusal">
        {refused && <p className="alert">{refused}</p>}
      </div>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить цены на даты" onDiscard={discard} />
    </form>
  );
}

/** «ночь на 31 декабря 2026, чт» as the owner reads it. */
function nightName(date: string): string {
  return `${formatDate(date)}, ${weekday(isoWeekday(date)).short.toLowerCase()}`;
}
