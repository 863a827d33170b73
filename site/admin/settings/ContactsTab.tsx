import { extractMapSrc } from '../../../schema/map.ts';
import { CONTACT_FIELDS, contactInfoSchema, type ContactInfo, type Settings } from '../../../schema/settings.ts';
import { call, client } from '../client.ts';
import { Field } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { useSettingsForm } from './useSettingsForm.ts';
import { MessengersForm, pickMessengers } from './MessengersForm.tsx';

const pick = (s: Settings): ContactInfo => Object.fromEntries(CONTACT_FIELDS.map((k) => [k, s[k]])) as ContactInfo;

/** «Контакты»: the nine contact fields, saved together; then the messengers. */
export function ContactsTab() {
  const { state, reload, setData } = useLoad(() =>
    call(client().admin.settings.$get()).then((s) => ({ contacts: pick(s), messengers: pickMessengers(s) })),
  );
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  return (
    <>
      <ContactsForm saved={state.data.contacts} onSaved={(contacts) => setData((d) => ({ ...d, contacts }))} />
      <MessengersForm saved={state.data.messengers} onSaved={(messengers) => setData((d) => ({ ...d, messengers }))} />
    </>
  );
}

type Key = keyof ContactInfo;

function ContactsForm({ saved, onSaved }: { saved: ContactInfo; onSaved: (s: ContactInfo) => void }) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'contacts',
    saved,
    onSaved,
    pick,
    check: (v) => contactInfoSchema.safeParse(v),
    // Both levels of the settings (top level and contactInfo), so every reader agrees.
    payload: (data) => ({ ...data, contactInfo: data }),
    messages: { saved: 'Контакты сохранены!', failed: 'Ошибка при сохранении контактов' },
  });

  const set = (key: Key, value: string) => {
    update({ [key]: value } as Partial<ContactInfo>);
    clearError(key);
  };

  const input = (key: Key, label: string, opts: { type?: string; hint?: string; autoComplete?: string } = {}) => (
    <Field label={label} error={errors[key]} hint={opts.hint}>
      {(p) => (
        <input
          {...p}
          className="input"
          type={opts.type ?? 'text'}
          inputMode={opts.type === 'tel' ? 'tel' : undefined}
          autoComplete={opts.autoComplete ?? 'off'}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  const mapSrc = extractMapSrc(values.mapEmbedCode);

  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate>
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Шапка и страница «Контакты»</legend>
        {input('siteName', 'Название сайта')}
        {input('phone', 'Телефон в шапке сайта', {
          type: 'tel',
          hint: 'Номер для звонков; из него же строится ссылка на WhatsApp',
        })}
        {input('email', 'Email', { type: 'email' })}
        {input('address', 'Адрес')}
      </fieldset>
      <fieldset className="group">
        <legend>Подвал сайта</legend>
        {input('footerPhone', 'Телефон в подвале', { type: 'tel' })}
        {input('footerEmail', 'Email в подвале', { type: 'email' })}
        {input('footerAddress', 'Адрес в подвале')}
        <Field label="Описание в подвале" error={errors.footerDescription}>
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={3}
              value={values.footerDescription}
              onChange={(e) => set('footerDescription', e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset className="group">
        <legend>Карта</legend>
        <Field
          label="HTML-код карты"
          error={errors.mapEmbedCode}
          hint={
            values.mapEmbedCode.trim() === ''
              ? 'Вставьте код для встраивания (<iframe …>) из Яндекс Карт или Google Maps. Пока поле пустое, на сайте показан адрес.'
              : mapSrc
                ? '✓ Карта распознана и будет показана на странице «Контакты».'
                : 'Карта не распознана: нужен код <iframe> с Яндекс Карт или Google Maps. Пока на сайте показан адрес.'
          }
        >
          {(p) => (
            <textarea
              {...p}
              className="input input--code"
              rows={4}
              spellCheck={false}
              value={values.mapEmbedCode}
              onChange={(e) => set('mapEmbedCode', e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <FormFooter dirty={dirty} busy={busy} label="Сохранить все контакты" onDiscard={discard} />
    </form>
  );
}
