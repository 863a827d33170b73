// «Настройки» → «Бронирование и оплата»: how guests book (a request,
// or a booking with prepayment through ЮKassa), how much is paid up front and how long unpaid
// nights are held, the cleaning fee and the tourist tax every total carries, and the VAT of the
// receipts. Prepayment cannot be switched on while the server has no ЮKassa keys: the panel says
// so before the owner tries, and the server refuses it too (400 with the same words).
import {
  formatKopecks,
  HOLD_MINUTES_BOUNDS,
  PREPAYMENT_PERCENT_BOUNDS,
  prepaymentKopecks,
  priceStay,
  TOURIST_TAX_RATE_MAX,
  VAT_CODES,
  VAT_CODE_VALUES,
  type VatCode,
} from '../../../schema/payment-options.ts';
import { MSG } from '../../../schema/messages.ts';
import {
  DEPOSIT_ASK_DAYS_MAX,
  DEPOSIT_HOLD_NOTE,
  DEPOSIT_PAID_NOTE,
  DEPOSIT_SHOP_HOLDS_LABEL,
  DEPOSIT_WITHOUT_HOLD,
  DEPOSIT_WITHOUT_HOLD_LABEL,
  DEPOSIT_WITHOUT_HOLD_LABELS,
} from '../../../schema/deposits.ts';
import { CHANGE_ALLOWED_UNTIL_DAYS_MAX } from '../../../schema/date-change.ts';
import { paymentSettingsSchema, type PaymentSettings, type Settings } from '../../../schema/settings.ts';
import { formatPrice } from '../../../schema/format.ts';
import { call, client } from '../client.ts';
import { Field, NumberInput } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { numberOf, shownNumber } from '../ui/numbers.ts';
import { useSettingsForm } from './useSettingsForm.ts';
import { PriceLines } from '../../islands/PriceLines.tsx';
import { OwnerOnly, useIsOwner } from '../ui/role.tsx';

const pick = (s: Settings): PaymentSettings => ({
  bookingMode: s.bookingMode,
  prepayment: s.prepayment,
  holdMinutes: s.holdMinutes,
  cleaningFee: s.cleaningFee,
  touristTax: s.touristTax,
  vatCode: s.vatCode,
  deposit: s.deposit,
  changes: s.changes,
});

export function PaymentSettingsSection() {
  const { state, reload, setData } = useLoad(() =>
    Promise.all([call(client().admin.settings.$get()).then(pick), call(client().admin.payments.$get())]),
  );
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  const [saved, shop] = state.data;
  return <PaymentSettingsForm saved={saved} configured={shop.configured} onSaved={(s) => setData(([, x]) => [s, x])} />;
}

function PaymentSettingsForm({
  saved,
  configured,
  onSaved,
}: {
  saved: PaymentSettings;
  configured: boolean;
  onSaved: (s: PaymentSettings) => void;
}) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'payments',
    saved,
    onSaved,
    pick,
    check: (v) => paymentSettingsSchema.safeParse(v),
    payload: (data) => data,
    messages: { saved: 'Настройки сохранены!', failed: 'Ошибка при сохранении настроек' },
  });
  const set = <K extends keyof PaymentSettings>(key: K, value: PaymentSettings[K], errorKey: string = key) => {
    update({ [key]: value } as Partial<PaymentSettings>);
    clearError(errorKey);
    clearError(key);
  };
  // A manager reads how guests pay (to answer them) but cannot change it.
  const owner = useIsOwner();
  const prepaymentOn = values.bookingMode === 'prepayment';
  const tax = values.touristTax;
  // What a guest would see for three nights at 5 000 ₽: the owner checks the lines before saving.
  const example = priceStay([{ start: '', end: '', nights: 3, pricePerNight: 5000 }], {
    cleaningFee: Number.isNaN(values.cleaningFee) ? 0 : values.cleaningFee,
    touristTax: {
      ...tax,
      ratePercent: Number.isNaN(tax.ratePercent) ? 0 : tax.ratePercent,
      minPerNight: Number.isNaN(tax.minPerNight) ? 0 : tax.minPerNight,
    },
  });
  const percent = values.prepayment.percent;
  const examplePrepayment =
    Number.isNaN(percent) && values.prepayment.kind === 'percent'
      ? null
      : prepaymentKopecks(example, 5000, values.prepayment);

  return (
    <form
      ref={formRef}
      className="tab tab-form payment-settings"
      onSubmit={submit}
      noValidate
      aria-label="Бронирование и оплата"
    >
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group" disabled={!owner}>
        <legend>Бронирование и оплата</legend>
        {!owner && <OwnerOnly what="менять оплату" />}
        <fieldset className="field">
          <legend className="label">Как гости бронируют</legend>
          <label className="check">
            <input
              type="radio"
              name="bookingMode"
              checked={!prepaymentOn}
              onChange={() => set('bookingMode', 'request')}
            />
            <span>
              <b>Заявка</b>: гость оставляет заявку, вы подтверждаете её в «Заявках»
            </span>
          </label>
          <label className="check">
            <input
              type="radio"
              name="bookingMode"
              checked={prepaymentOn}
              disabled={!configured && !prepaymentOn}
              onChange={() => set('bookingMode', 'prepayment')}
            />
            <span>
              <b>Бронирование с предоплатой</b>: гость сразу платит предоплату через ЮKassa, и бронирование
              подтверждается само
            </span>
          </label>
          {!configured && (
            <p className="alert alert--warning payment-settings__keys" role="note">
              {MSG.paymentsNotConfigured}
            </p>
          )}
          {errors.bookingMode && <p className="error-text">{errors.bookingMode}</p>}
        </fieldset>

        <fieldset className="field">
          <legend className="label">Предоплата</legend>
          <label className="check">
            <input
              type="radio"
              name="prepaymentKind"
              checked={values.prepayment.kind === 'percent'}
              onChange={() => set('prepayment', { ...values.prepayment, kind: 'percent' }, 'prepayment.kind')}
            />
            <span>Процент от суммы</span>
          </label>
          <label className="check">
            <input
              type="radio"
              name="prepaymentKind"
              checked={values.prepayment.kind === 'firstNight'}
              onChange={() => set('prepayment', { ...values.prepayment, kind: 'firstNight' }, 'prepayment.kind')}
            />
            <span>Стоимость первой ночи</span>
          </label>
        </fieldset>
        {values.prepayment.kind === 'percent' && (
          <Field
            label="Процент предоплаты"
            error={errors['prepayment.percent'] ?? errors.prepayment}
            hint={`От ${PREPAYMENT_PERCENT_BOUNDS.min} до ${PREPAYMENT_PERCENT_BOUNDS.max} %`}
          >
            {(p) => (
              <NumberInput
                {...p}
                className="input input--time"
                min={PREPAYMENT_PERCENT_BOUNDS.min}
                max={PREPAYMENT_PERCENT_BOUNDS.max}
                value={shownNumber(percent)}
                onChange={(e) =>
                  set('prepayment', { ...values.prepayment, percent: numberOf(e.target.value) }, 'prepayment.percent')
                }
              />
            )}
          </Field>
        )}
        <Field
          label="Сколько минут держать даты, пока гость платит"
          error={errors.holdMinutes}
          hint={`Пока гость платит, эти ночи заняты для всех остальных. Не оплатил за это время — ночи снова свободны. От ${HOLD_MINUTES_BOUNDS.min} до ${HOLD_MINUTES_BOUNDS.max} минут.`}
        >
          {(p) => (
            <NumberInput
              {...p}
              className="input input--time"
              min={HOLD_MINUTES_BOUNDS.min}
              max={HOLD_MINUTES_BOUNDS.max}
              value={shownNumber(values.holdMinutes)}
              onChange={(e) => set('holdMinutes', numberOf(e.target.value))}
            />
          )}
        </Field>
        <Field
          label="За сколько дней до заезда просить залог"
          error={errors.deposit ?? errors['deposit.askDaysBefore']}
          hint={`Залог домика (в его карточке) гость вносит на своей странице с этого дня и до заезда. ${DEPOSIT_HOLD_NOTE}`}
        >
          {(p) => (
            <NumberInput
              {...p}
              className="input input--time"
              min={0}
              max={DEPOSIT_ASK_DAYS_MAX}
              value={shownNumber(values.deposit.askDaysBefore)}
              onChange={(e) =>
                set('deposit', { ...values.deposit, askDaysBefore: numberOf(e.target.value) }, 'deposit.askDaysBefore')
              }
            />
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={values.deposit.shopHolds}
            onChange={(e) => set('deposit', { ...values.deposit, shopHolds: e.target.checked }, 'deposit.shopHolds')}
          />{' '}
          {DEPOSIT_SHOP_HOLDS_LABEL}
        </label>
        <fieldset className="field">
          <legend className="label">{DEPOSIT_WITHOUT_HOLD_LABEL}</legend>
          {DEPOSIT_WITHOUT_HOLD.map((choice) => (
            <label className="check" key={choice}>
              <input
                type="radio"
                name="depositWithoutHold"
                checked={values.deposit.withoutHold === choice}
                onChange={() => set('deposit', { ...values.deposit, withoutHold: choice }, 'deposit.withoutHold')}
              />{' '}
              {DEPOSIT_WITHOUT_HOLD_LABELS[choice]}
            </label>
          ))}
          <p className="hint">{DEPOSIT_PAID_NOTE}</p>
          {(errors['deposit.withoutHold'] ?? errors['deposit.shopHolds']) && (
            <p className="error-text">{errors['deposit.withoutHold'] ?? errors['deposit.shopHolds']}</p>
          )}
        </fieldset>
        <Field
          label="До скольких дней до заезда гость может перенести даты"
          error={errors.changes ?? errors['changes.allowedUntilDays']}
          hint="Гость переносит даты на своей странице: новая стоимость считается по ценам домика, разницу он доплачивает через ЮKassa, а если стало дешевле, переплата возвращается по правилам отмены. 0 — до дня заезда."
        >
          {(p) => (
            <NumberInput
              {...p}
              className="input input--time"
              min={0}
              max={CHANGE_ALLOWED_UNTIL_DAYS_MAX}
              value={shownNumber(values.changes.allowedUntilDays)}
              onChange={(e) =>
                set(
                  'changes',
                  { ...values.changes, allowedUntilDays: numberOf(e.target.value) },
                  'changes.allowedUntilDays',
                )
              }
            />
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={values.changes.anyCabin}
            onChange={(e) => set('changes', { ...values.changes, anyCabin: e.target.checked }, 'changes.anyCabin')}
          />{' '}
          Можно перенести в другой свободный домик
        </label>
        <Field
          label="НДС в чеках"
          error={errors.vatCode}
          hint="Самозанятые, УСН и патент выбирают «Без НДС». Чеки отправляет ЮKassa («Чеки от ЮKassa»)."
        >
          {(p) => (
            <select
              {...p}
              className="input"
              value={values.vatCode}
              onChange={(e) => set('vatCode', Number(e.target.value) as VatCode)}
            >
              {VAT_CODE_VALUES.map((code) => (
                <option key={code} value={code}>
                  {VAT_CODES[code].label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>

      <fieldset className="group" disabled={!owner}>
        <legend>Уборка и туристический налог</legend>
        <Field
          label="Уборка, ₽ за проживание"
          error={errors.cleaningFee}
          hint="Добавляется к каждому бронированию одной строкой. 0 — без платы за уборку."
        >
          {(p) => (
            <NumberInput
              {...p}
              className="input input--time"
              min={0}
              value={shownNumber(values.cleaningFee)}
              onChange={(e) => set('cleaningFee', numberOf(e.target.value))}
            />
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={tax.enabled}
            onChange={(e) => set('touristTax', { ...tax, enabled: e.target.checked }, 'touristTax.enabled')}
          />
          <span>Взимать туристический налог (для объектов из реестра; квартиры посуточно его не взимают)</span>
        </label>
        {tax.enabled && (
          <div className="form-grid">
            <Field
              label="Ставка, %"
              error={errors['touristTax.ratePercent']}
              hint={`Ставку устанавливает ваш регион, не больше ${TOURIST_TAX_RATE_MAX} %`}
            >
              {(p) => (
                <input
                  {...p}
                  className="input input--time"
                  type="number"
                  inputMode="decimal"
                  step="0.01"
                  min={0}
                  max={TOURIST_TAX_RATE_MAX}
                  value={shownNumber(tax.ratePercent)}
                  onChange={(e) =>
                    set('touristTax', { ...tax, ratePercent: numberOf(e.target.value) }, 'touristTax.ratePercent')
                  }
                />
              )}
            </Field>
            <Field
              label="Минимум за ночь, ₽"
              error={errors['touristTax.minPerNight']}
              hint="Налог не меньше этой суммы за каждую ночь"
            >
              {(p) => (
                <NumberInput
                  {...p}
                  className="input input--time"
                  min={0}
                  value={shownNumber(tax.minPerNight)}
                  onChange={(e) =>
                    set('touristTax', { ...tax, minPerNight: numberOf(e.target.value) }, 'touristTax.minPerNight')
                  }
                />
              )}
            </Field>
          </div>
        )}
        <div className="payment-settings__example" aria-live="polite">
          <p className="label">Так гость увидит 3 ночи по {formatPrice(5000)}:</p>
          <PriceLines
            lines={example.lines}
            total={example.total}
            className="payment-settings__lines"
            totalClassName="payment-settings__total"
          >
            {prepaymentOn && examplePrepayment !== null && (
              <div>
                <dt>Предоплата</dt>
                <dd>{formatKopecks(examplePrepayment)}</dd>
              </div>
            )}
          </PriceLines>
        </div>
      </fieldset>
      {owner && <FormFooter dirty={dirty} busy={busy} label="Сохранить настройки оплаты" onDiscard={discard} />}
    </form>
  );
}
