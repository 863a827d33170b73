// «Мессенджеры» in the «Контакты» tab: the owner's Telegram username and MAX
// link, and which ways the booking card offers a visitor after a request (WhatsApp, Telegram,
// MAX, a call). Saved on its own, checked with the shared schema.
import { BOOKING_CHANNEL_LABELS, BOOKING_CHANNELS, type BookingChannel } from '../../../schema/booking-options.ts';
import { MESSENGER_FIELDS, messengerSchema, type MessengerSettings, type Settings } from '../../../schema/settings.ts';
import { Field } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useSettingsForm } from './useSettingsForm.ts';

export const pickMessengers = (s: Settings): MessengerSettings =>
  Object.fromEntries(MESSENGER_FIELDS.map((k) => [k, s[k]])) as MessengerSettings;

export function MessengersForm({
  saved,
  onSaved,
}: {
  saved: MessengerSettings;
  onSaved: (s: MessengerSettings) => void;
}) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'messengers',
    saved,
    onSaved,
    pick: pickMessengers,
    check: (v) => messengerSchema.safeParse(v),
    payload: (data) => data,
    messages: { saved: 'Мессенджеры сохранены!', failed: 'Ошибка при сохранении мессенджеров' },
  });

  const toggle = (channel: BookingChannel, on: boolean) => {
    // Kept in the site's order, whatever order the boxes were ticked in.
    const next = BOOKING_CHANNELS.filter((c) => (c === channel ? on : values.bookingChannels.includes(c)));
    update({ bookingChannels: next });
    clearError('bookingChannels');
  };
  const missing = (c: BookingChannel) =>
    (c === 'telegram' && !values.telegramUsername.trim()) || (c === 'max' && !values.maxLink.trim());

  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate aria-label="Мессенджеры">
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Мессенджеры</legend>
        <Field
          label="Telegram"
          error={errors.telegramUsername}
          hint="Имя пользователя, например kaspiy_dom (можно вставить ссылку t.me/…)"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              value={values.telegramUsername}
              onChange={(e) => {
                update({ telegramUsername: e.target.value });
                clearError('telegramUsername');
              }}
            />
          )}
        </Field>
        <Field label="MAX" error={errors.maxLink} hint="Ссылка на ваш профиль или чат в MAX: https://max.ru/…">
          {(p) => (
            <input
              {...p}
              className="input"
              type="url"
              inputMode="url"
              autoComplete="off"
              value={values.maxLink}
              onChange={(e) => {
                update({ maxLink: e.target.value });
                clearError('maxLink');
              }}
            />
          )}
        </Field>
        <fieldset className="switches" aria-describedby="channels-hint">
          <legend className="label">Как гость может связаться после заявки</legend>
          {BOOKING_CHANNELS.map((c) => (
            <label key={c} className="check">
              <input
                type="checkbox"
                checked={values.bookingChannels.includes(c)}
                onChange={(e) => toggle(c, e.target.checked)}
              />
              <span>
                {BOOKING_CHANNEL_LABELS[c]}
                {missing(c) && values.bookingChannels.includes(c)
                  ? ' (не будет показан, пока не заполнено поле выше)'
                  : ''}
              </span>
            </label>
          ))}
          <p className="hint" id="channels-hint">
            Заявка сохраняется на сайте в любом случае; выбранные способы гость увидит в карточке бронирования.
          </p>
          {errors.bookingChannels && (
            <p className="error-text" role="alert">
              {errors.bookingChannels}
            </p>
          )}
        </fieldset>
      </fieldset>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить мессенджеры" onDiscard={discard} />
    </form>
  );
}
