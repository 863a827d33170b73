// «Дополнительные услуги»: the баня, a transfer, breakfast — a price per stay, night, guest or
// guest and night; ticked by the guest on the booking card, or always in when mandatory; for every
// cabin or the ones chosen. Saved as a whole list with the discounts as they are stored.
import { EXTRA_PER, EXTRA_PER_LABELS, type Extra, type ExtraPer } from '../../../schema/pricing.ts';
import { formatPrice } from '../../../schema/format.ts';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import { numberOf } from '../ui/numbers.ts';
import { useListForm } from './useListForm.ts';

export type ExtraRow = { id?: number; name: string; price: string; per: ExtraPer; mandatory: boolean; cabinIds: number[] | null };
export type ExtraValues = { rows: ExtraRow[] };
export type CabinName = { id: number; name: string; active: boolean };

export const extraValues = (list: readonly Extra[]): ExtraValues => ({
  rows: list.map((e) => ({ id: e.id, name: e.name, price: String(e.price), per: e.per, mandatory: e.mandatory, cabinIds: e.cabinIds })),
});

/** The rows as the API takes them: an extra keeps its id, so bookings that name it still do. */
export const extraPayload = (v: ExtraValues) =>
  v.rows.map((r) => ({ ...(r.id === undefined ? {} : { id: r.id }), name: r.name, price: numberOf(r.price), per: r.per, mandatory: r.mandatory, cabinIds: r.cabinIds }));

export function ExtrasForm({ saved, cabins, save }: { saved: ExtraValues; cabins: CabinName[]; save: (v: ExtraValues) => Promise<unknown> }) {
  const { values, update, dirty, discard, restored, busy, refused, formRef, submit } = useListForm({
    draft: 'extras',
    saved,
    save,
    messages: { saved: 'Услуги сохранены', failed: 'Не удалось сохранить услуги' },
  });
  const setRow = (i: number, patch: Partial<ExtraRow>) => update((v) => ({ rows: v.rows.map((r, n) => (n === i ? { ...r, ...patch } : r)) }));
  const add = () => {
    update((v) => ({ rows: [...v.rows, { name: '', price: '', per: 'stay', mandatory: false, cabinIds: null }] }));
    const index = values.rows.length;
    requestAnimationFrame(() => document.getElementById(`extra-${index}-name`)?.focus());
  };

  return (
    <form ref={formRef} className="group calendar-section pricing-form" onSubmit={submit} noValidate aria-labelledby="extras-title">
      <h3 className="group__title" id="extras-title">
        Дополнительные услуги
      </h3>
      <RestoredDraft show={restored && dirty} />
      <p className="hint">Гость отмечает нужные услуги при бронировании, и их цена входит в сумму. Обязательные входят в каждое бронирование сами.</p>
      {values.rows.length === 0 ? (
        <p className="muted">Услуг нет.</p>
      ) : (
        <ul className="season-list" aria-label="Услуги">
          {values.rows.map((r, i) => {
            const price = numberOf(r.price);
            const chosen = r.cabinIds ?? [];
            return (
              <li key={r.id ?? `new-${i}`} className="season-list__item">
                <fieldset>
                  <legend className="season-list__legend">Услуга {i + 1}</legend>
                  <div className="form-grid">
                    <div className="field">
                      <label className="label" htmlFor={`extra-${i}-name`}>
                        Название
                      </label>
                      <input id={`extra-${i}-name`} className="input" maxLength={60} placeholder="Баня" value={r.name} onChange={(e) => setRow(i, { name: e.target.value })} />
                    </div>
                    <div className="field">
                      <label className="label" htmlFor={`extra-${i}-price`}>
                        Цена, ₽
                      </label>
                      <input id={`extra-${i}-price`} className="input" type="number" inputMode="numeric" min={0} value={r.price} onChange={(e) => setRow(i, { price: e.target.value })} />
                    </div>
                    <div className="field">
                      <label className="label" htmlFor={`extra-${i}-per`}>
                        Цена берётся
                      </label>
                      <select id={`extra-${i}-per`} className="input" value={r.per} onChange={(e) => setRow(i, { per: e.target.value as ExtraPer })}>
                        {EXTRA_PER.map((p) => (
                          <option key={p} value={p}>
                            {EXTRA_PER_LABELS[p]}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                  <label className="check pricing-form__check">
                    <input type="checkbox" checked={r.mandatory} onChange={(e) => setRow(i, { mandatory: e.target.checked })} />
                    <span>Обязательная: входит в каждое бронирование, гость не может её снять</span>
                  </label>
                  <fieldset className="pricing-form__cabins">
                    <legend className="label">Для каких домиков</legend>
                    <label className="check">
                      <input type="radio" name={`extra-${i}-for`} checked={r.cabinIds === null} onChange={() => setRow(i, { cabinIds: null })} />
                      <span>Для всех домиков</span>
                    </label>
                    <label className="check">
                      <input type="radio" name={`extra-${i}-for`} checked={r.cabinIds !== null} onChange={() => setRow(i, { cabinIds: chosen })} />
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
                                onChange={(e) => setRow(i, { cabinIds: e.target.checked ? [...chosen, c.id].sort((a, b) => a - b) : chosen.filter((id) => id !== c.id) })}
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
                    {r.cabinIds !== null && chosen.length === 0 && <p className="hint">Отметьте домики: пока услуга не предлагается нигде.</p>}
                  </fieldset>
                </fieldset>
                <div className="season-list__foot">
                  <span className="pricing-form__rule">{r.name.trim() && Number.isInteger(price) && price >= 0 ? `${r.name.trim()}: ${formatPrice(price)} ${EXTRA_PER_LABELS[r.per]}` : ''}</span>
                  <button type="button" className="btn btn--ghost btn--sm calendar-remove" onClick={() => update((v) => ({ rows: v.rows.filter((_, n) => n !== i) }))}>
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> услугу {i + 1}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="btn btn--secondary" onClick={add}>
        <Icon name="plus" /> Добавить услугу
      </button>
      <div role="alert" className="form-refusal">
        {refused && <p className="alert">{refused}</p>}
      </div>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить услуги" onDiscard={discard} />
    </form>
  );
}
