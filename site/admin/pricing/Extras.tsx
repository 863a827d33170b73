// «Дополнительные услуги»: the баня, a transfer, breakfast — a price per stay, night, guest or
// guest and night; ticked by the guest on the booking card, or always in when mandatory; for every
// cabin or the ones chosen. An early check-in or a late check-out gives an hour and is offered only
// when the night beside the stay is free. Saved as a whole list with the discounts as they are stored.
import {
  EXTRA_KIND_LABELS,
  EXTRA_KINDS,
  EXTRA_PER,
  EXTRA_PER_LABELS,
  type Extra,
  type ExtraKind,
  type ExtraPer,
} from '../../../schema/pricing.ts';
import { formatPrice } from '../../../schema/format.ts';
import { Field, NumberInput } from '../ui/Field.tsx';
import { numberOf } from '../ui/numbers.ts';
import { RowListForm } from './RowListForm.tsx';

export type ExtraRow = {
  id?: number;
  name: string;
  price: string;
  per: ExtraPer;
  mandatory: boolean;
  cabinIds: number[] | null;
  kind: ExtraKind;
  /** The hour it gives ('10:00'), for an early check-in or a late check-out. */
  time: string;
};
export type ExtraValues = { rows: ExtraRow[] };
export type CabinName = { id: number; name: string; active: boolean };

export const extraValues = (list: readonly Extra[]): ExtraValues => ({
  rows: list.map((e) => ({
    id: e.id,
    name: e.name,
    price: String(e.price),
    per: e.per,
    mandatory: e.mandatory,
    cabinIds: e.cabinIds,
    kind: e.kind ?? 'ordinary',
    time: e.time ?? '',
  })),
});

/** The rows as the API takes them: an extra keeps its id, so bookings that name it still do. */
export const extraPayload = (v: ExtraValues) =>
  v.rows.map((r) => ({
    ...(r.id === undefined ? {} : { id: r.id }),
    name: r.name,
    price: numberOf(r.price),
    per: r.per,
    mandatory: r.kind === 'ordinary' && r.mandatory,
    cabinIds: r.cabinIds,
    kind: r.kind,
    time: r.kind === 'ordinary' ? null : r.time,
  }));

/** The hour's words beside the kind: an early check-in gives «с», a late check-out «до». */
const TIME_LABELS: Record<Exclude<ExtraKind, 'ordinary'>, string> = {
  earlyCheckIn: 'Заезд с',
  lateCheckOut: 'Выезд до',
};

/** «Баня: 2 000 ₽ за проживание», «Ранний заезд: 1 000 ₽ за проживание (заезд с 10:00)», once the name and the price are there. */
function ruleText(r: ExtraRow): string {
  const price = numberOf(r.price);
  return r.name.trim() && Number.isInteger(price) && price >= 0
    ? `${r.name.trim()}: ${formatPrice(price)} ${EXTRA_PER_LABELS[r.per]}${r.kind !== 'ordinary' && r.time ? ` (${TIME_LABELS[r.kind].toLowerCase()} ${r.time})` : ''}`
    : '';
}

export function ExtrasForm({
  saved,
  cabins,
  save,
}: {
  saved: ExtraValues;
  cabins: CabinName[];
  save: (v: ExtraValues) => Promise<unknown>;
}) {
  return (
    <RowListForm
      draft="extras"
      saved={saved}
      save={save}
      titleId="extras-title"
      words={{
        title: 'Дополнительные услуги',
        hint: 'Гость отмечает нужные услуги при бронировании, и их цена входит в сумму. Обязательные входят в каждое бронирование сами.',
        empty: 'Услуг нет.',
        list: 'Услуги',
        row: 'Услуга',
        remove: 'услугу',
        add: 'Добавить услугу',
        save: 'Сохранить услуги',
        saved: 'Услуги сохранены',
        failed: 'Не удалось сохранить услуги',
      }}
      newRow={(): ExtraRow => ({
        name: '',
        price: '',
        per: 'stay',
        mandatory: false,
        cabinIds: null,
        kind: 'ordinary',
        time: '',
      })}
      firstFieldId={(i) => `extra-${i}-name`}
      rowKey={(r, i) => r.id ?? `new-${i}`}
      rule={ruleText}
      fields={(r, i, setRow) => {
        const chosen = r.cabinIds ?? [];
        return (
          <>
            <div className="form-grid">
              <Field id={`extra-${i}-name`} label="Название">
                {({ id }) => (
                  <input
                    id={id}
                    className="input"
                    maxLength={60}
                    placeholder="Баня"
                    value={r.name}
                    onChange={(e) => setRow({ name: e.target.value })}
                  />
                )}
              </Field>
              <Field id={`extra-${i}-price`} label="Цена, ₽">
                {({ id }) => (
                  <NumberInput id={id} min={0} value={r.price} onChange={(e) => setRow({ price: e.target.value })} />
                )}
              </Field>
              <Field id={`extra-${i}-per`} label="Цена берётся">
                {({ id }) => (
                  <select
                    id={id}
                    className="input"
                    value={r.per}
                    onChange={(e) => setRow({ per: e.target.value as ExtraPer })}
                  >
                    {EXTRA_PER.map((p) => (
                      <option key={p} value={p}>
                        {EXTRA_PER_LABELS[p]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id={`extra-${i}-kind`} label="Вид">
                {({ id }) => (
                  <select
                    id={id}
                    className="input"
                    value={r.kind}
                    onChange={(e) => setRow({ kind: e.target.value as ExtraKind })}
                  >
                    {EXTRA_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {EXTRA_KIND_LABELS[k]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {r.kind !== 'ordinary' && (
                <Field id={`extra-${i}-time`} label={TIME_LABELS[r.kind]}>
                  {({ id }) => (
                    <input
                      id={id}
                      type="time"
                      className="input"
                      value={r.time}
                      onChange={(e) => setRow({ time: e.target.value })}
                    />
                  )}
                </Field>
              )}
            </div>
            {r.kind === 'ordinary' ? (
              <label className="check pricing-form__check">
                <input
                  type="checkbox"
                  checked={r.mandatory}
                  onChange={(e) => setRow({ mandatory: e.target.checked })}
                />
                <span>Обязательная: входит в каждое бронирование, гость не может её снять</span>
              </label>
            ) : (
              <p className="hint">
                {r.kind === 'earlyCheckIn'
                  ? 'Предлагается, только когда ночь перед заездом свободна.'
                  : 'Предлагается, только когда ночь в день выезда свободна.'}
              </p>
            )}
            <fieldset className="pricing-form__cabins">
              <legend className="label">Для каких домиков</legend>
              <label className="check">
                <input
                  type="radio"
                  name={`extra-${i}-for`}
                  checked={r.cabinIds === null}
                  onChange={() => setRow({ cabinIds: null })}
                />
                <span>Для всех домиков</span>
              </label>
              <label className="check">
                <input
                  type="radio"
                  name={`extra-${i}-for`}
                  checked={r.cabinIds !== null}
                  onChange={() => setRow({ cabinIds: chosen })}
                />
                <span>Только для выбранных</span>
              </label>
              {r.cabinIds !== null && (
                <ul className="pricing-form__cabin-list" aria-label={`Домики услуги ${i + 1}`}>
                  {cabins.map((c) => (
                    <li key={c.id}>
                      <label className="check">
                        <input
                          type="checkbox"
                          checked={chosen.includes(c.id)}
                          onChange={(e) =>
                            setRow({
                              cabinIds: e.target.checked
                                ? [...chosen, c.id].sort((a, b) => a - b)
                                : chosen.filter((id) => id !== c.id),
                            })
                          }
                        />
                        <span>
                          {c.name}
                          {c.active ? '' : ' (скрыт)'}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
              {r.cabinIds !== null && chosen.length === 0 && (
                <p className="hint">Отметьте домики: пока услуга не предлагается нигде.</p>
              )}
            </fieldset>
          </>
        );
      }}
    />
  );
}
