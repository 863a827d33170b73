// «Скидки»: for a long stay, for booking early, for booking at the last minute. One wins: the
// largest that applies (schema/pricing.ts bestDiscount). Saved as a whole list with the extras as
// they are stored (PUT /admin/pricing takes both).
import type { Discount, DiscountKind } from '../../../schema/pricing.ts';
import { countOf } from '../../../schema/format.ts';
import { numberOf } from '../ui/numbers.ts';
import { Field, NumberInput, PercentInput } from '../ui/Field.tsx';
import { RowListForm } from './RowListForm.tsx';

export type DiscountRow = { kind: DiscountKind; days: string; percent: string };
export type DiscountValues = { rows: DiscountRow[] };

/** «за 1 день», «за 3 дня»; «от 1 ночи», «от 7 ночей». */
const daysText = (n: number) => countOf(n, ['день', 'дня', 'дней']);
const nightsFrom = (n: number) => countOf(n, ['ночи', 'ночей', 'ночей']);

/** Each kind as the owner chooses it, what its number means, and the rule in words. */
const KINDS: Record<DiscountKind, { option: string; days: string; hint: string; rule: (n: number) => string }> = {
  longStay: {
    option: 'За долгое проживание',
    days: 'От скольких ночей',
    hint: 'Например, 7 — скидка на неделю и дольше',
    rule: (n) => `при проживании от ${nightsFrom(n)}`,
  },
  earlyBooking: {
    option: 'За раннее бронирование',
    days: 'За сколько дней до заезда, не меньше',
    hint: 'Например, 60 — скидка тем, кто бронирует за 2 месяца и раньше',
    rule: (n) => `при бронировании за ${daysText(n)} до заезда и раньше`,
  },
  lastMinute: {
    option: 'В последний момент',
    days: 'За сколько дней до заезда, не больше',
    hint: 'Например, 3 — скидка, если до заезда 3 дня или меньше',
    rule: (n) => `при бронировании за ${daysText(n)} до заезда и позже`,
  },
};

export const discountValues = (list: readonly Discount[]): DiscountValues => ({
  rows: list.map((d) => ({
    kind: d.kind,
    days: String(d.kind === 'longStay' ? d.minNights : d.kind === 'earlyBooking' ? d.minDaysAhead : d.maxDaysAhead),
    percent: String(d.percent),
  })),
});

/** The rows as the API takes them: an empty or unfinished number travels as null, which the server refuses in its words. */
export function discountPayload(v: DiscountValues) {
  return v.rows.map((r): Discount => {
    const days = numberOf(r.days);
    const percent = numberOf(r.percent);
    if (r.kind === 'longStay') return { kind: r.kind, minNights: days, percent };
    if (r.kind === 'earlyBooking') return { kind: r.kind, minDaysAhead: days, percent };
    return { kind: r.kind, maxDaysAhead: days, percent };
  });
}

/** «−10 % при проживании от 7 ночей», once both numbers are whole. */
function ruleText(r: DiscountRow): string {
  const days = numberOf(r.days);
  const percent = numberOf(r.percent);
  if (!Number.isInteger(days) || !Number.isInteger(percent) || days < 0 || percent < 1) return '';
  return `−${percent}\u00a0% ${KINDS[r.kind].rule(days)}`;
}

export function DiscountsForm({
  saved,
  save,
}: {
  saved: DiscountValues;
  save: (v: DiscountValues) => Promise<unknown>;
}) {
  return (
    <RowListForm
      draft="discounts"
      saved={saved}
      save={save}
      titleId="discounts-title"
      words={{
        title: 'Скидки',
        hint: 'Скидки не складываются: гость получает одну, самую большую из подходящих. Промокод действует после скидки.',
        empty: 'Скидок нет.',
        list: 'Скидки',
        row: 'Скидка',
        remove: 'скидку',
        add: 'Добавить скидку',
        save: 'Сохранить скидки',
        saved: 'Скидки сохранены',
        failed: 'Не удалось сохранить скидки',
      }}
      newRow={(): DiscountRow => ({ kind: 'longStay', days: '', percent: '' })}
      firstFieldId={(i) => `discount-${i}-kind`}
      rule={ruleText}
      fields={(r, i, setRow) => (
        <div className="form-grid">
          <Field id={`discount-${i}-kind`} label="Вид скидки">
            {(p) => (
              <select
                {...p}
                className="input"
                value={r.kind}
                onChange={(e) => setRow({ kind: e.target.value as DiscountKind })}
              >
                {(Object.keys(KINDS) as DiscountKind[]).map((k) => (
                  <option key={k} value={k}>
                    {KINDS[k].option}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id={`discount-${i}-days`} label={KINDS[r.kind].days} hint={KINDS[r.kind].hint}>
            {(p) => (
              <NumberInput
                {...p}
                min={r.kind === 'longStay' ? 1 : 0}
                value={r.days}
                onChange={(e) => setRow({ days: e.target.value })}
              />
            )}
          </Field>
          <Field id={`discount-${i}-percent`} label="Скидка, %">
            {(p) => <PercentInput {...p} value={r.percent} onChange={(e) => setRow({ percent: e.target.value })} />}
          </Field>
        </div>
      )}
    />
  );
}
