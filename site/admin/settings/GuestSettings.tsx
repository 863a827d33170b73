// «Настройки» → «Гостям»: the cancellation policy the guest's page states and applies,
// and the three e-mails that go by themselves (at confirmation, N days before arrival, N days after
// departure), each with its subject and text, the placeholders, and a preview filled with an
// example booking, exactly as the guest will read it.
import { MSG } from '../../../schema/messages.ts';
import {
  CANCELLATION_BOUNDS,
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  PLACEHOLDER_HINTS,
  PLACEHOLDERS,
  REMINDER_DAYS_BEFORE_BOUNDS,
  REVIEW_DAYS_AFTER_BOUNDS,
  cancellationSchema,
  messagesSchema,
  renderTemplate,
  type MessageKind,
} from '../../../schema/guest-page.ts';
import { formatPrice } from '../../../schema/format.ts';
import type { Settings } from '../../../schema/settings.ts';
import { z } from 'zod';
import { call, client } from '../client.ts';
import { Field, NumberInput } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { numberOf, shownNumber } from '../ui/numbers.ts';
import { useSettingsForm } from './useSettingsForm.ts';

type GuestSettingsValues = Pick<Settings, 'cancellation' | 'messages'>;
const pick = (s: Settings): GuestSettingsValues => ({ cancellation: s.cancellation, messages: s.messages });
const schema = z.object({ cancellation: cancellationSchema, messages: messagesSchema });

/** The booking the previews are filled with. */
const EXAMPLE = {
  name: 'Мадина',
  cabinName: 'Домик у моря',
  checkIn: '2027-07-10',
  checkOut: '2027-07-14',
  link: 'https://ваш-сайт.рф/b/…',
};

export function GuestSettings() {
  const { state, reload, setData } = useLoad(() => call(client().admin.settings.$get()).then(pick));
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  return <GuestSettingsForm saved={state.data} onSaved={(s) => setData(() => s)} />;
}

function GuestSettingsForm({
  saved,
  onSaved,
}: {
  saved: GuestSettingsValues;
  onSaved: (s: GuestSettingsValues) => void;
}) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'guests',
    saved,
    onSaved,
    pick,
    check: (v) => schema.safeParse(v),
    payload: (data) => data,
    messages: { saved: 'Настройки сохранены!', failed: 'Ошибка при сохранении настроек' },
  });
  const policy = values.cancellation;
  const setPolicy = (change: Partial<GuestSettingsValues['cancellation']>) => {
    update((v) => ({ ...v, cancellation: { ...v.cancellation, ...change } }));
    for (const k of Object.keys(change)) clearError(`cancellation.${k}`);
  };
  const setMessage = <K extends MessageKind>(kind: K, change: Partial<GuestSettingsValues['messages'][K]>) => {
    update((v) => ({ ...v, messages: { ...v.messages, [kind]: { ...v.messages[kind], ...change } } }));
    for (const k of Object.keys(change)) clearError(`messages.${kind}.${k}`);
  };
  // What a guest cancelling late gets back of a 40 000 ₽ stay paid in full: the owner checks the words before saving.
  const keep = Number.isNaN(policy.keepPercent) ? 0 : policy.keepPercent;
  const example = 40_000;

  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate>
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Отмена бронирования</legend>
        <p className="hint">
          Гость отменяет бронирование сам на своей странице; деньги возвращаются через ЮKassa автоматически. Вернуть
          больше можно из «Заявок».
        </p>
        <div className="form-grid">
          <Field
            label="Бесплатная отмена: за сколько дней до заезда"
            error={errors['cancellation.freeUntilDays']}
            hint="0 — бесплатно до дня заезда"
          >
            {(p) => (
              <NumberInput
                {...p}
                min={CANCELLATION_BOUNDS.freeUntilDays.min}
                max={CANCELLATION_BOUNDS.freeUntilDays.max}
                value={shownNumber(policy.freeUntilDays)}
                onChange={(e) => setPolicy({ freeUntilDays: numberOf(e.target.value) })}
              />
            )}
          </Field>
          <Field
            label="Позже удерживать, % стоимости"
            error={errors['cancellation.keepPercent']}
            hint="Не больше того, что гость заплатил"
          >
            {(p) => (
              <NumberInput
                {...p}
                min={0}
                max={100}
                value={shownNumber(policy.keepPercent)}
                onChange={(e) => setPolicy({ keepPercent: numberOf(e.target.value) })}
              />
            )}
          </Field>
        </div>
        <p className="hint" aria-live="polite">
          Пример: проживание за {formatPrice(example)} оплачено полностью. Отмена раньше чем за{' '}
          {shownNumber(policy.freeUntilDays) || 0} дн. до заезда — вернём {formatPrice(example)}; позже — вернём{' '}
          {formatPrice(example - Math.round((example * keep) / 100))}, удержим{' '}
          {formatPrice(Math.round((example * keep) / 100))}. После даты заезда отменить нельзя.
        </p>
      </fieldset>

      <fieldset className="group">
        <legend>Письма гостям</legend>
        <p className="hint">
          Уходят сами на e-mail гостя, если он его оставил. Подстановки:{' '}
          {PLACEHOLDERS.map((ph, i) => (
            <span key={ph}>
              {i > 0 ? ', ' : ''}
              <code>{ph}</code> — {PLACEHOLDER_HINTS[ph]}
            </span>
          ))}
          .
        </p>
        {MESSAGE_KINDS.map((kind) => {
          const t = values.messages[kind];
          const preview = renderTemplate(
            t,
            kind === 'review' ? { ...EXAMPLE, link: `${EXAMPLE.link}#review` } : EXAMPLE,
          );
          return (
            <fieldset key={kind} className="group message-template">
              <legend>{MESSAGE_KIND_LABELS[kind]}</legend>
              <label className="check">
                <input
                  type="checkbox"
                  checked={t.enabled}
                  onChange={(e) => setMessage(kind, { enabled: e.target.checked })}
                />{' '}
                Отправлять
              </label>
              {kind === 'reminder' ? (
                <Field label="За сколько дней до заезда" error={errors['messages.reminder.daysBefore']}>
                  {(p) => (
                    <NumberInput
                      {...p}
                      min={REMINDER_DAYS_BEFORE_BOUNDS.min}
                      max={REMINDER_DAYS_BEFORE_BOUNDS.max}
                      value={shownNumber(values.messages.reminder.daysBefore)}
                      onChange={(e) => setMessage('reminder', { daysBefore: numberOf(e.target.value) })}
                    />
                  )}
                </Field>
              ) : null}
              {kind === 'review' ? (
                <Field label="Через сколько дней после выезда" error={errors['messages.review.daysAfter']}>
                  {(p) => (
                    <NumberInput
                      {...p}
                      min={REVIEW_DAYS_AFTER_BOUNDS.min}
                      max={REVIEW_DAYS_AFTER_BOUNDS.max}
                      value={shownNumber(values.messages.review.daysAfter)}
                      onChange={(e) => setMessage('review', { daysAfter: numberOf(e.target.value) })}
                    />
                  )}
                </Field>
              ) : null}
              <Field label="Тема письма" error={errors[`messages.${kind}.subject`]}>
                {(p) => (
                  <input
                    {...p}
                    className="input"
                    maxLength={200}
                    value={t.subject}
                    onChange={(e) => setMessage(kind, { subject: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Текст письма" error={errors[`messages.${kind}.body`]}>
                {(p) => (
                  <textarea
                    {...p}
                    className="input"
                    rows={7}
                    maxLength={5000}
                    value={t.body}
                    onChange={(e) => setMessage(kind, { body: e.target.value })}
                  />
                )}
              </Field>
              <details className="message-preview">
                <summary>Как увидит гость</summary>
                <p>
                  <strong>{preview.subject}</strong>
                </p>
                <p className="message-preview__text">{preview.text}</p>
              </details>
            </fieldset>
          );
        })}
        {errors.messages ? <p className="error-text">{errors.messages || MSG.badInput}</p> : null}
      </fieldset>

      <FormFooter dirty={dirty} busy={busy} label="Сохранить" onDiscard={discard} />
    </form>
  );
}
