import { settingsUpdateSchema, type Feature, type Settings } from '../../../schema/settings.ts';
import { call, client } from '../client.ts';
import { Field, NumberInput } from '../ui/Field.tsx';
import { FormFooter, RestoredDraft } from '../ui/FormFooter.tsx';
import { Icon } from '../ui/Icon.tsx';
import { tabHref, useHashDetail } from '../ui/hash.ts';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { PricingSettings } from '../pricing/PricingSettings.tsx';
import { GuestSettings } from './GuestSettings.tsx';
import { PromotionSettings } from './PromotionSettings.tsx';
import { MaxAlerts } from './MaxAlerts.tsx';
import { GuestTelegram } from './GuestTelegram.tsx';
import { GuestSms } from './GuestSms.tsx';
import { PaymentSettingsSection } from './PaymentSettings.tsx';
import { numberOf, shownNumber } from '../ui/numbers.ts';
import { useSettingsForm } from './useSettingsForm.ts';
import { useIsOwner } from '../ui/role.tsx';

type SiteTexts = Pick<
  Settings,
  | 'heroTitle'
  | 'heroSubtitle'
  | 'whyChooseUsTitle'
  | 'whyChooseUsSubtitle'
  | 'whyChooseUsFeatures'
  | 'checkInTime'
  | 'checkOutTime'
  | 'bookingRetentionYears'
  | 'registryNumber'
  | 'registryUrl'
>;

const pick = (s: Settings): SiteTexts => ({
  heroTitle: s.heroTitle,
  heroSubtitle: s.heroSubtitle,
  whyChooseUsTitle: s.whyChooseUsTitle,
  whyChooseUsSubtitle: s.whyChooseUsSubtitle,
  whyChooseUsFeatures: s.whyChooseUsFeatures,
  checkInTime: s.checkInTime,
  checkOutTime: s.checkOutTime,
  bookingRetentionYears: s.bookingRetentionYears,
  registryNumber: s.registryNumber,
  registryUrl: s.registryUrl,
});

const MAX_FEATURES = 12;

/** The address of «Цены и скидки». */
export const PRICING_DETAIL = 'pricing';
/** The address of «Гостям»: the cancellation policy and the e-mails to guests. */
export const GUESTS_DETAIL = 'guests';
/** The address of «Продвижение» (the owner's alone): Yandex Webmaster, Metrika, Яндекс Бизнес. */
export const PROMOTION_DETAIL = 'promotion';

/**
 * «Настройки»: «Основные» (the home page's texts and the stay rules, booking and payment, and
 * the owner's alerts in MAX) and, one tap beside them, «Цены и скидки» («#settings/pricing») and
 * «Гостям» («#settings/guests»: the cancellation policy and the e-mails to guests), and for the owner
 * «Продвижение» («#settings/promotion»: Yandex Webmaster, Metrika, the guide to Яндекс Бизнес).
 */
export function SettingsTab() {
  const detail = useHashDetail();
  const owner = useIsOwner();
  const view =
    detail === PRICING_DETAIL || detail === GUESTS_DETAIL || (owner && detail === PROMOTION_DETAIL) ? detail : 'main';
  return (
    <>
      <nav className="segmented calendar-views settings-views" aria-label="Разделы настроек">
        <a className="segmented__btn" href={tabHref('settings')} aria-current={view === 'main' ? 'page' : undefined}>
          Основные
        </a>
        <a
          className="segmented__btn"
          href={tabHref('settings', PRICING_DETAIL)}
          aria-current={view === PRICING_DETAIL ? 'page' : undefined}
        >
          Цены и скидки
        </a>
        <a
          className="segmented__btn"
          href={tabHref('settings', GUESTS_DETAIL)}
          aria-current={view === GUESTS_DETAIL ? 'page' : undefined}
        >
          Гостям
        </a>
        {owner && (
          <a
            className="segmented__btn"
            href={tabHref('settings', PROMOTION_DETAIL)}
            aria-current={view === PROMOTION_DETAIL ? 'page' : undefined}
          >
            Продвижение
          </a>
        )}
      </nav>
      {view === PRICING_DETAIL ? (
        <PricingSettings />
      ) : view === GUESTS_DETAIL ? (
        <GuestSettings />
      ) : view === PROMOTION_DETAIL ? (
        <PromotionSettings />
      ) : (
        <MainSettings />
      )}
    </>
  );
}

function MainSettings() {
  const { state, reload, setData } = useLoad(() => call(client().admin.settings.$get()).then(pick));
  const owner = useIsOwner();
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  return (
    <>
      <SettingsForm saved={state.data} onSaved={(s) => setData(() => s)} />
      {/* Its own form: the booking mode, prepayment, fee and tax are saved apart from the site's texts. */}
      <PaymentSettingsSection />
      {/* Its own form and actions: the token is not part of the settings saved above. The owner's alerts, with the owner's bot. */}
      {owner && <MaxAlerts />}
      {/* The guests' bot: another token, another audience (guests), the owner's alone too. */}
      {owner && <GuestTelegram />}
      {/* SMS to guests who tied no messenger: the owner's SMS.ru account and its monthly cap, the owner's alone. */}
      {owner && <GuestSms />}
    </>
  );
}

function SettingsForm({ saved, onSaved }: { saved: SiteTexts; onSaved: (s: SiteTexts) => void }) {
  const { values, update, dirty, discard, restored, errors, clearError, busy, formRef, submit } = useSettingsForm({
    draft: 'settings',
    saved,
    onSaved,
    pick,
    // Blocks left completely empty are simply not kept.
    check: (v) =>
      settingsUpdateSchema.safeParse({
        ...v,
        whyChooseUsFeatures: v.whyChooseUsFeatures.filter((f) => f.title.trim() || f.description.trim()),
      }),
    payload: (data) => data,
    messages: { saved: 'Настройки сохранены!', failed: 'Ошибка при сохранении настроек' },
  });

  const set = <K extends keyof SiteTexts>(key: K, value: SiteTexts[K]) => {
    update({ [key]: value } as Partial<SiteTexts>);
    clearError(key);
  };
  const setFeature = (i: number, change: Partial<Feature>) => {
    update((v) => ({
      ...v,
      whyChooseUsFeatures: v.whyChooseUsFeatures.map((f, n) => (n === i ? { ...f, ...change } : f)),
    }));
    for (const k of Object.keys(change)) clearError(`whyChooseUsFeatures.${i}.${k}`);
  };
  const addFeature = () => {
    update((v) => ({ ...v, whyChooseUsFeatures: [...v.whyChooseUsFeatures, { title: '', description: '' }] }));
    const index = values.whyChooseUsFeatures.length;
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLInputElement>(`[data-feature-title="${index}"]`)?.focus(),
    );
  };
  const removeFeature = (i: number) =>
    update((v) => ({ ...v, whyChooseUsFeatures: v.whyChooseUsFeatures.filter((_, n) => n !== i) }));

  const text = (key: 'heroTitle' | 'whyChooseUsTitle', label: string) => (
    <Field label={label} error={errors[key]}>
      {(p) => <input {...p} className="input" value={values[key]} onChange={(e) => set(key, e.target.value)} />}
    </Field>
  );
  const area = (key: 'heroSubtitle' | 'whyChooseUsSubtitle', label: string) => (
    <Field label={label} error={errors[key]}>
      {(p) => (
        <textarea
          {...p}
          className="input input--short"
          rows={2}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  const time = (key: 'checkInTime' | 'checkOutTime', label: string, hint: string) => (
    <Field label={label} error={errors[key]} hint={hint}>
      {(p) => (
        <input
          {...p}
          className="input input--time"
          inputMode="numeric"
          maxLength={5}
          placeholder={key === 'checkInTime' ? '14:00' : '12:00'}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form ref={formRef} className="tab tab-form" onSubmit={submit} noValidate>
      <RestoredDraft show={restored && dirty} />
      <fieldset className="group">
        <legend>Главная: первый экран</legend>
        {text('heroTitle', 'Заголовок')}
        {area('heroSubtitle', 'Подзаголовок')}
      </fieldset>

      <fieldset className="group">
        <legend>Почему выбирают нас</legend>
        {text('whyChooseUsTitle', 'Заголовок раздела')}
        {area('whyChooseUsSubtitle', 'Подзаголовок раздела')}
        <ol className="features">
          {values.whyChooseUsFeatures.map((f, i) => (
            <li key={i} className="feature">
              <fieldset>
                <legend className="feature__legend">Блок {i + 1}</legend>
                <Field label="Заголовок блока" error={errors[`whyChooseUsFeatures.${i}.title`]}>
                  {(p) => (
                    <input
                      {...p}
                      data-feature-title={i}
                      className="input"
                      value={f.title}
                      onChange={(e) => setFeature(i, { title: e.target.value })}
                    />
                  )}
                </Field>
                <Field label="Описание блока" error={errors[`whyChooseUsFeatures.${i}.description`]}>
                  {(p) => (
                    <textarea
                      {...p}
                      className="input input--short"
                      rows={2}
                      value={f.description}
                      onChange={(e) => setFeature(i, { description: e.target.value })}
                    />
                  )}
                </Field>
                <button
                  type="button"
                  className="btn btn--danger btn--sm feature__remove"
                  onClick={() => removeFeature(i)}
                >
                  <Icon name="trash" /> Удалить блок<span className="visually-hidden"> {i + 1}</span>
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
        {errors.whyChooseUsFeatures && <p className="error-text">{errors.whyChooseUsFeatures}</p>}
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={addFeature}
          disabled={values.whyChooseUsFeatures.length >= MAX_FEATURES}
        >
          <Icon name="plus" /> Добавить блок
        </button>
      </fieldset>

      <fieldset className="group">
        <legend>Правила проживания</legend>
        <div className="form-grid">
          {time('checkInTime', 'Время заезда', 'после 14:00')}
          {time('checkOutTime', 'Время выезда', 'до 12:00')}
        </div>
      </fieldset>

      <fieldset className="group">
        <legend>Персональные данные</legend>
        <Field
          label="Сколько лет хранить имя, телефон и почту из заявок"
          error={errors.bookingRetentionYears}
          hint="Потом они стираются сами (даты и сумма остаются). Срок указан на странице «Политика конфиденциальности»."
        >
          {(p) => (
            <NumberInput
              {...p}
              min={1}
              max={10}
              value={shownNumber(values.bookingRetentionYears)}
              onChange={(e) => set('bookingRetentionYears', numberOf(e.target.value))}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="group">
        <legend>Реестр средств размещения</legend>
        <Field
          label="Номер в реестре"
          error={errors.registryNumber}
          hint="Номер записи в реестре классифицированных средств размещения: показывается в подвале сайта и на странице контактов"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              value={values.registryNumber}
              onChange={(e) => set('registryNumber', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Ссылка на запись в реестре"
          error={errors.registryUrl}
          hint="Адрес страницы с вашей записью, начинается с https://"
        >
          {(p) => (
            <input
              {...p}
              className="input"
              type="url"
              inputMode="url"
              value={values.registryUrl}
              onChange={(e) => set('registryUrl', e.target.value)}
            />
          )}
        </Field>
      </fieldset>

      <FormFooter dirty={dirty} busy={busy} label="Сохранить все настройки" onDiscard={discard} />
    </form>
  );
}
