// «Сезонные цены»: the minimum stay outside seasons and the seasons themselves, edited as one
// list and saved at once (the server refuses overlaps). A refused save keeps every row as typed.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { todayInMoscow } from '../../../schema/dates.ts';
import { formatPrice } from '../../../schema/format.ts';
import { MSG } from '../../../schema/messages.ts';
import type { Calendar, OnDirty } from './CalendarCommon.tsx';
import { useFailure } from '../ui/useFailure.ts';
import { call, client } from '../client.ts';
import { Field, NumberInput } from '../ui/Field.tsx';
import { FormFooter } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { usePublish } from '../ui/PublishStatus.tsx';
import { numberOf } from '../ui/numbers.ts';
import { WEEKDAYS } from '../ui/weekdays.ts';

type Row = {
  key: number;
  start: string;
  end: string;
  pricePerNight: string;
  weekendPricePerNight: string;
  minNights: string;
  /** Empty: no longest stay of the season's own. */
  maxNights: string;
  closedToArrival: number[];
  closedToDeparture: number[];
};
type Saved = { seasons: Calendar['seasons']; minNights: number };

/** The row's prices in words, once they are numbers: «9 500 ₽ за ночь, в выходные 11 000 ₽». */
function seasonPriceText(price: number, weekend: number): string {
  if (!Number.isInteger(price) || price < 0) return '';
  return `${formatPrice(price)} за ночь${Number.isInteger(weekend) && weekend > 0 ? `, в выходные ${formatPrice(weekend)}` : ''}`;
}

/** A weekend price that is neither empty nor a whole number of roubles above 0: the server's rule, said before sending. */
const weekendWrong = (text: string) => text.trim() !== '' && !(Number.isInteger(numberOf(text)) && numberOf(text) >= 1);

/** What is wrong with a row that can be seen before saving (the server still decides). */
function rowProblem(rows: Row[], i: number): string | null {
  const r = rows[i]!;
  if (!r.start || !r.end) return null;
  if (r.end <= r.start) return 'Дата «по» должна быть позже даты «с»';
  const other = rows.findIndex(
    (s, j) => j !== i && s.start && s.end && s.start < s.end && s.start < r.end && r.start < s.end,
  );
  return other === -1 ? null : `Пересекается с сезоном ${other + 1}`;
}

export function CalendarSeasons({
  cabinId,
  cal,
  onSaved,
  onDirty,
}: {
  cabinId: number;
  cal: Calendar;
  onSaved: (saved: Saved) => void;
  onDirty: OnDirty;
}) {
  const today = todayInMoscow();
  const nextKey = useRef(0);
  const toRows = (seasons: Calendar['seasons']): Row[] =>
    // Seasons already over change no price and the server takes no past dates: they are left out.
    seasons
      .filter((s) => s.end > today)
      .map((s) => ({
        key: nextKey.current++,
        start: s.start,
        end: s.end,
        pricePerNight: String(s.pricePerNight),
        weekendPricePerNight: s.weekendPricePerNight != null ? String(s.weekendPricePerNight) : '',
        minNights: String(s.minNights),
        maxNights: s.maxNights != null ? String(s.maxNights) : '',
        closedToArrival: [...(s.closedToArrival ?? [])],
        closedToDeparture: [...(s.closedToDeparture ?? [])],
      }));
  const [saved, setSaved] = useState(() => ({ rows: toRows(cal.seasons), minNights: String(cal.minNights) }));
  const [rows, setRows] = useState(saved.rows);
  const [minNights, setMinNights] = useState(saved.minNights);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const failed = useFailure();
  const published = usePublish();
  const past = cal.seasons.filter((s) => s.end <= today).length;

  const plain = (list: Row[]) => JSON.stringify(list.map(({ key: _, ...r }) => r));
  const dirty = minNights !== saved.minNights || plain(rows) !== plain(saved.rows);
  useEffect(() => onDirty('seasons', dirty), [dirty, onDirty]);
  useEffect(() => () => onDirty('seasons', false), [onDirty]);

  const set = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  async function save(e: FormEvent) {
    e.preventDefault();
    const wrong = rows.findIndex((r) => weekendWrong(r.weekendPricePerNight));
    if (wrong !== -1) {
      notify.error(`Не удалось сохранить сезонные цены: Сезон ${wrong + 1}: ${MSG.weekendPriceInvalid}`);
      document.getElementById(`season-${wrong}-weekend`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const seasons = rows.map((r) => ({
        start: r.start,
        end: r.end,
        pricePerNight: numberOf(r.pricePerNight),
        // Empty: the season's weekends cost as its other nights.
        weekendPricePerNight: r.weekendPricePerNight.trim() === '' ? null : numberOf(r.weekendPricePerNight),
        minNights: r.minNights.trim() === '' ? 1 : numberOf(r.minNights),
        maxNights: r.maxNights.trim() === '' ? null : numberOf(r.maxNights),
        closedToArrival: r.closedToArrival,
        closedToDeparture: r.closedToDeparture,
      }));
      const res = await call(
        client().admin.cabins[':id'].seasons.$put({
          param: { id: String(cabinId) },
          json: { seasons, minNights: numberOf(minNights) },
        }),
      );
      const next = { rows: toRows(res.seasons), minNights: String(res.minNights) };
      setSaved(next);
      setRows(next.rows);
      setMinNights(next.minNights);
      onSaved(res);
      published();
      notify.success('Сезонные цены сохранены! Сайт обновится через минуту.');
    } catch (err) {
      failed(err, 'Не удалось сохранить сезонные цены');
    } finally {
      setBusy(false);
    }
  }

  /** The weekdays a stay may not begin (or end) on in this season: none ticked, any day. */
  const closedDays = (r: Row, i: number, key: 'closedToArrival' | 'closedToDeparture', title: string) => (
    <fieldset className="weekdays">
      <legend className="label">{title}</legend>
      <div className="weekdays__days">
        {WEEKDAYS.map((d) => (
          <label key={d.day} className="weekdays__day">
            <input
              type="checkbox"
              checked={r[key].includes(d.day)}
              onChange={(e) =>
                set(r.key, {
                  [key]: (e.target.checked ? [...r[key], d.day] : r[key].filter((n) => n !== d.day)).sort(
                    (a, b) => a - b,
                  ),
                })
              }
            />
            <span>
              {d.short}
              <span className="visually-hidden">
                {' '}
                ({d.name}, сезон {i + 1})
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );

  function discard() {
    setRows(saved.rows);
    setMinNights(saved.minNights);
  }

  return (
    <form className="group calendar-section" onSubmit={save} aria-labelledby="seasons-title" noValidate>
      <h3 className="group__title" id="seasons-title">
        Сезонные цены
      </h3>
      <Field id="base-min" label="Минимум ночей вне сезонов">
        {({ id }) => (
          <NumberInput
            id={id}
            className="input input--narrow"
            min={1}
            max={365}
            value={minNights}
            onChange={(e) => setMinNights(e.target.value)}
          />
        )}
      </Field>
      <p className="hint">
        В сезон каждая ночь стоит цену сезона (выходные — цену выходных сезона, если она указана), вне сезонов — цену
        домика. «По» — день выезда: эта ночь уже не в сезоне. Сезоны не должны пересекаться. Дни без заезда и максимум
        ночей считаются по дню заезда, дни без выезда — по дню выезда.
        {past > 0 && ` Прошедшие сезоны (${past}) не показаны: на цены они уже не влияют и при сохранении удаляются.`}
      </p>
      {rows.length === 0 ? (
        <p className="muted">Сезонов нет: все ночи по цене домика.</p>
      ) : (
        <ul className="season-list" aria-label="Сезоны">
          {rows.map((r, i) => {
            const problem = rowProblem(rows, i);
            const price = numberOf(r.pricePerNight);
            const weekendProblem = weekendWrong(r.weekendPricePerNight);
            return (
              <li key={r.key} className="season-list__item">
                <fieldset>
                  <legend className="season-list__legend">Сезон {i + 1}</legend>
                  <div className="form-grid">
                    {/* The dates are marked invalid together, by the row's problem shown under the row. */}
                    <Field id={`season-${i}-start`} label="С">
                      {({ id }) => (
                        <input
                          id={id}
                          className="input"
                          type="date"
                          value={r.start}
                          aria-invalid={!!problem}
                          onChange={(e) => set(r.key, { start: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field id={`season-${i}-end`} label="По (день выезда)">
                      {({ id }) => (
                        <input
                          id={id}
                          className="input"
                          type="date"
                          value={r.end}
                          aria-invalid={!!problem}
                          onChange={(e) => set(r.key, { end: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field id={`season-${i}-price`} label="Цена за ночь, ₽">
                      {({ id }) => (
                        <NumberInput
                          id={id}
                          min={0}
                          value={r.pricePerNight}
                          onChange={(e) => set(r.key, { pricePerNight: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field
                      id={`season-${i}-weekend`}
                      label="Цена в выходные, ₽"
                      hint="Пусто — как в будни сезона"
                      error={weekendProblem ? MSG.weekendPriceInvalid : undefined}
                    >
                      {(p) => (
                        <NumberInput
                          {...p}
                          min={1}
                          placeholder="Как в будни"
                          value={r.weekendPricePerNight}
                          onChange={(e) => set(r.key, { weekendPricePerNight: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field id={`season-${i}-min`} label="Минимум ночей">
                      {({ id }) => (
                        <NumberInput
                          id={id}
                          min={1}
                          max={365}
                          value={r.minNights}
                          onChange={(e) => set(r.key, { minNights: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field id={`season-${i}-max`} label="Максимум ночей" hint="Пусто — без ограничения">
                      {(p) => (
                        <NumberInput
                          {...p}
                          min={1}
                          max={365}
                          placeholder="Без ограничения"
                          value={r.maxNights}
                          onChange={(e) => set(r.key, { maxNights: e.target.value })}
                        />
                      )}
                    </Field>
                  </div>
                  {closedDays(r, i, 'closedToArrival', 'Дни без заезда')}
                  {closedDays(r, i, 'closedToDeparture', 'Дни без выезда')}
                </fieldset>
                {problem && (
                  <p className="error-text">
                    <Icon name="x" /> {problem}
                  </p>
                )}
                <div className="season-list__foot">
                  <span className="muted">{seasonPriceText(price, numberOf(r.weekendPricePerNight))}</span>
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm calendar-remove"
                    onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                  >
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> сезон {i + 1}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() =>
          setRows((list) => [
            ...list,
            {
              key: nextKey.current++,
              start: '',
              end: '',
              pricePerNight: '',
              weekendPricePerNight: '',
              minNights: '1',
              maxNights: '',
              closedToArrival: [],
              closedToDeparture: [],
            },
          ])
        }
      >
        <Icon name="plus" /> Добавить сезон
      </button>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить сезоны" onDiscard={discard} />
    </form>
  );
}
