// «Промокоды»: a code the guest types on the booking card for a percentage or an amount off the
// stay; when it can be used, for which nights, how many times, and how many times it has been.
// Saved as a whole list (PUT /admin/promo-codes); a code that stays keeps its uses.
import { countOf, formatPrice } from '../../../schema/format.ts';
import { Field, NumberInput, PercentInput } from '../ui/Field.tsx';
import { RowListForm } from './RowListForm.tsx';
import { dateOrNull, numberOrNull, shown } from './useListForm.ts';

export type PromoCode = {
  code: string;
  percent: number | null;
  amount: number | null;
  validFrom: string | null;
  validTo: string | null;
  stayFrom: string | null;
  stayTo: string | null;
  maxUses: number | null;
  uses?: number;
};
export type PromoRow = {
  code: string;
  percent: string;
  amount: string;
  validFrom: string;
  validTo: string;
  stayFrom: string;
  stayTo: string;
  maxUses: string;
  uses: number;
};
export type PromoValues = { rows: PromoRow[] };

export const promoValues = (list: readonly PromoCode[]): PromoValues => ({
  rows: list.map((c) => ({
    code: c.code,
    percent: shown(c.percent),
    amount: shown(c.amount),
    validFrom: c.validFrom ?? '',
    validTo: c.validTo ?? '',
    stayFrom: c.stayFrom ?? '',
    stayTo: c.stayTo ?? '',
    maxUses: shown(c.maxUses),
    uses: c.uses ?? 0,
  })),
});

/** The rows as the API takes them: an empty field is «not set» (no limit, any date). */
export const promoPayload = (v: PromoValues) =>
  v.rows.map((r) => ({
    code: r.code.trim(),
    percent: numberOrNull(r.percent),
    amount: numberOrNull(r.amount),
    validFrom: dateOrNull(r.validFrom),
    validTo: dateOrNull(r.validTo),
    stayFrom: dateOrNull(r.stayFrom),
    stayTo: dateOrNull(r.stayTo),
    maxUses: numberOrNull(r.maxUses),
  }));

const times = (n: number) => countOf(n, ['раз', 'раза', 'раз']);

/** «Использован 3 раза из 10», «Ещё не использован». */
function usesText(r: PromoRow): string {
  const max = numberOrNull(r.maxUses);
  const of = max !== null && Number.isInteger(max) && max > 0 ? ` из ${max}` : '';
  return r.uses > 0 ? `Использован ${times(r.uses)}${of}` : `Ещё не использован${of ? `, можно ${times(max!)}` : ''}`;
}

/** «−10 %» or «−500 ₽», once one of them is a number. */
function valueText(r: PromoRow): string {
  const percent = numberOrNull(r.percent);
  const amount = numberOrNull(r.amount);
  if (percent !== null && amount !== null) return '';
  if (percent !== null && Number.isInteger(percent) && percent > 0) return `−${percent}\u00a0%`;
  if (amount !== null && Number.isInteger(amount) && amount > 0) return `−${formatPrice(amount)}`;
  return '';
}

export function PromoCodesForm({ saved, save }: { saved: PromoValues; save: (v: PromoValues) => Promise<unknown> }) {
  return (
    <RowListForm
      draft="promoCodes"
      saved={saved}
      save={save}
      titleId="promo-title"
      words={{
        title: 'Промокоды',
        hint: 'Гость вводит промокод при бронировании. Скидка — процент или сумма в рублях, что-то одно. Пустые даты и число раз — без ограничений.',
        empty: 'Промокодов нет.',
        list: 'Промокоды',
        row: 'Промокод',
        remove: 'промокод',
        add: 'Добавить промокод',
        save: 'Сохранить промокоды',
        saved: 'Промокоды сохранены',
        failed: 'Не удалось сохранить промокоды',
      }}
      newRow={() => ({
        code: '',
        percent: '',
        amount: '',
        validFrom: '',
        validTo: '',
        stayFrom: '',
        stayTo: '',
        maxUses: '',
        uses: 0,
      })}
      firstFieldId={(i) => `promo-${i}-code`}
      rule={(r) => [valueText(r), usesText(r)].filter(Boolean).join(' · ')}
      fields={(r, i, setRow) => (
        <>
          <div className="form-grid">
            <Field
              id={`promo-${i}-code`}
              label="Код"
              hint="Русские или латинские буквы и цифры, от 3 до 20. Гость может набрать код строчными буквами или в другой раскладке"
            >
              {(p) => (
                <input
                  {...p}
                  className="input pricing-form__code"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={20}
                  placeholder="ЛЕТО10"
                  value={r.code}
                  onChange={(e) => setRow({ code: e.target.value })}
                />
              )}
            </Field>
            <Field id={`promo-${i}-max`} label="Сколько раз можно использовать">
              {(p) => (
                <NumberInput
                  {...p}
                  min={1}
                  placeholder="Без ограничений"
                  value={r.maxUses}
                  onChange={(e) => setRow({ maxUses: e.target.value })}
                />
              )}
            </Field>
          </div>
          <div className="pricing-form__pairs">
            <fieldset className="pricing-form__pair">
              <legend className="label">Скидка по коду</legend>
              <Field id={`promo-${i}-percent`} label="Процент">
                {(p) => <PercentInput {...p} value={r.percent} onChange={(e) => setRow({ percent: e.target.value })} />}
              </Field>
              <Field id={`promo-${i}-amount`} label="Или сумма, ₽">
                {(p) => (
                  <NumberInput {...p} min={1} value={r.amount} onChange={(e) => setRow({ amount: e.target.value })} />
                )}
              </Field>
            </fieldset>
            <fieldset className="pricing-form__pair">
              <legend className="label">Когда можно бронировать с этим кодом</legend>
              {dateField(i, r, setRow, 'validFrom', 'С')}
              {dateField(i, r, setRow, 'validTo', 'По')}
            </fieldset>
            <fieldset className="pricing-form__pair">
              <legend className="label">На какие ночи действует, включительно</legend>
              {dateField(i, r, setRow, 'stayFrom', 'С')}
              {dateField(i, r, setRow, 'stayTo', 'По')}
            </fieldset>
          </div>
        </>
      )}
    />
  );
}

/** One of the four date fields of a code. */
function dateField(
  i: number,
  r: PromoRow,
  setRow: (patch: Partial<PromoRow>) => void,
  key: 'validFrom' | 'validTo' | 'stayFrom' | 'stayTo',
  label: string,
) {
  return (
    <Field id={`promo-${i}-${key}`} label={label}>
      {(p) => (
        <input
          {...p}
          className="input"
          type="date"
          value={r[key]}
          onChange={(e) => setRow({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
}
