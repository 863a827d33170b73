import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { cabinInputSchema, type CabinInput } from '../../../schema/cabin-input.ts';
import { CABIN_DEFAULTS } from '../../../schema/constants.ts';
import { MSG } from '../../../schema/messages.ts';
import { DEPOSIT_HOLD_NOTE } from '../../../schema/deposits.ts';
import { WEEKEND_NIGHTS_DEFAULT, type PetsRule } from '../../../schema/pricing.ts';
import type { Cabin } from '../../../schema/tables.ts';
import { AmenityPicker } from './AmenityPicker.tsx';
import { describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { clearDraft, setDraft } from '../ui/drafts.ts';
import { Field, fieldErrors, focusFirstInvalid, type FieldErrors, NumberInput } from '../ui/Field.tsx';
import { DigitsInput } from '../ui/Inputs.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { PhotoUploader, type ImagesUpdate } from '../ui/PhotoUploader.tsx';
import { WEEKDAYS } from '../ui/weekdays.ts';

/** What the inputs hold: numbers as typed, so a half-typed value is never lost or rewritten. */
export type CabinFormValues = {
  name: string;
  description: string;
  pricePerNight: string;
  location: string;
  distanceToSea: string;
  bedrooms: string;
  bathrooms: string;
  maxGuests: string;
  amenities: string[];
  images: string[];
  featured: boolean;
  active: boolean;
  /** Empty: weekends cost as weekdays. */
  weekendPricePerNight: string;
  /** ISO weekdays of the nights that count as the weekend (5 = the night from Friday to Saturday). */
  weekendNights: number[];
  /** Empty: the price includes every guest the cabin takes. */
  baseGuests: string;
  extraGuestPerNight: string;
  /** Empty or 0: no deposit. */
  deposit: string;
  /** Children's prices by age (empty: 0, every child as an adult). */
  childFreeUnderAge: string;
  childShareUntilAge: string;
  childSharePercent: string;
  petsAllowed: boolean;
  petsFee: string;
  petsPer: PetsRule['per'];
};

/** The cabin form's draft: which cabin (null for a new one) and the edits so far. */
export type CabinDraft = { cabinId: number | null; values: CabinFormValues };

const MAX_IMAGES = 30;

const byDay = (days: readonly number[]) => [...days].sort((a, b) => a - b);

export function formValues(cabin?: Cabin): CabinFormValues {
  return {
    name: cabin?.name ?? '',
    description: cabin?.description ?? '',
    pricePerNight: cabin ? String(cabin.pricePerNight) : '',
    location: cabin?.location ?? '',
    distanceToSea: cabin?.distanceToSea ?? '',
    bedrooms: String(cabin?.bedrooms ?? CABIN_DEFAULTS.bedrooms),
    bathrooms: String(cabin?.bathrooms ?? CABIN_DEFAULTS.bathrooms),
    maxGuests: String(cabin?.maxGuests ?? CABIN_DEFAULTS.maxGuests),
    amenities: cabin?.amenities ?? [],
    images: cabin?.images ?? [],
    featured: cabin?.featured ?? CABIN_DEFAULTS.featured,
    active: cabin?.active ?? CABIN_DEFAULTS.active,
    weekendPricePerNight: cabin?.weekendPricePerNight != null ? String(cabin.weekendPricePerNight) : '',
    weekendNights: byDay(cabin?.weekendNights ?? WEEKEND_NIGHTS_DEFAULT),
    baseGuests: cabin?.baseGuests != null ? String(cabin.baseGuests) : '',
    extraGuestPerNight: cabin?.extraGuestPerNight ? String(cabin.extraGuestPerNight) : '',
    deposit: cabin?.deposit ? String(cabin.deposit) : '',
    childFreeUnderAge: cabin?.children.freeUnderAge ? String(cabin.children.freeUnderAge) : '',
    childShareUntilAge: cabin?.children.sharePercentUntilAge ? String(cabin.children.sharePercentUntilAge) : '',
    childSharePercent: cabin?.children.sharePercent ? String(cabin.children.sharePercent) : '',
    petsAllowed: cabin?.pets.allowed ?? false,
    petsFee: cabin?.pets.fee ? String(cabin.pets.fee) : '',
    petsPer: cabin?.pets.per ?? 'stay',
  };
}

/** Price in whole rubles («5 000» is fine); anything else is left for the schema to refuse. */
const parseInteger = (s: string): number | undefined => {
  const digits = s.replace(/[\s\u00a0]/g, '');
  if (digits === '') return undefined;
  return /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
};

export function toPayload(v: CabinFormValues) {
  return {
    name: v.name,
    description: v.description,
    pricePerNight: parseInteger(v.pricePerNight),
    location: v.location,
    distanceToSea: v.distanceToSea,
    bedrooms: parseInteger(v.bedrooms) ?? Number.NaN,
    bathrooms: parseInteger(v.bathrooms) ?? Number.NaN,
    maxGuests: parseInteger(v.maxGuests) ?? Number.NaN,
    amenities: v.amenities,
    images: v.images,
    featured: v.featured,
    active: v.active,
    // Empty means «as on weekdays» and «every guest»: null, which the server takes as such.
    weekendPricePerNight: parseInteger(v.weekendPricePerNight) ?? null,
    weekendNights: byDay(v.weekendNights),
    baseGuests: parseInteger(v.baseGuests) ?? null,
    // Empty is no surcharge: sent as 0, so clearing the field really clears it.
    extraGuestPerNight: parseInteger(v.extraGuestPerNight) ?? 0,
    deposit: parseInteger(v.deposit) ?? 0,
    // Empty fields are 0: no free age, no share, no fee.
    children: {
      freeUnderAge: parseInteger(v.childFreeUnderAge) ?? 0,
      sharePercentUntilAge: parseInteger(v.childShareUntilAge) ?? 0,
      sharePercent: parseInteger(v.childSharePercent) ?? 0,
    },
    pets: { allowed: v.petsAllowed, fee: parseInteger(v.petsFee) ?? 0, per: v.petsPer },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Props = {
  cabin?: Cabin;
  /** Saves; throws on failure. */
  onSave: (payload: CabinInput) => Promise<void>;
  onClose: () => void;
  /** The edits of a draft left by an ended session or a closed page. */
  restored?: CabinFormValues;
};

/**
 * «Добавить домик» / «Редактировать домик» in a modal. Every keystroke is kept as a draft;
 * closing with edits asks first, and a click beside the modal does nothing.
 */
export function CabinForm({ cabin, onSave, onClose, restored }: Props) {
  const cabinId = cabin?.id ?? null;
  const initial = useRef(formValues(cabin)).current;
  const [values, setValues] = useState<CabinFormValues>(() => (restored ? { ...initial, ...restored } : initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const confirm = useConfirm();
  const notify = useNotify();
  const dirty = !same(values, initial);

  // The draft follows the form; back at the original values there is nothing to keep.
  useEffect(() => {
    if (dirty) setDraft<CabinDraft>('cabin', { cabinId, values });
    else clearDraft('cabin');
  }, [values, dirty, cabinId]);

  const set = <K extends keyof CabinFormValues>(key: K, value: CabinFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const setImages = useCallback<ImagesUpdate>((update) => setValues((v) => ({ ...v, images: update(v.images) })), []);

  async function requestClose() {
    if (saving) return;
    if (dirty || uploading) {
      const ok = await confirm({
        title: 'Закрыть без сохранения?',
        text: uploading
          ? 'Фотографии ещё загружаются, а изменения в этом домике не сохранены. Если закрыть форму, они пропадут.'
          : 'Изменения в этом домике не сохранены. Если закрыть форму, они пропадут.',
        confirmLabel: 'Не сохранять',
        cancelLabel: 'Продолжить редактирование',
        danger: true,
      });
      if (!ok) return;
    }
    clearDraft('cabin');
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaveError(null);
    const payload = toPayload(values);
    const parsed = cabinInputSchema.safeParse(payload);
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    // The server refuses it too; said here under the field, before anything is sent.
    const { baseGuests, maxGuests } = payload;
    if (!found.baseGuests && baseGuests != null && baseGuests > maxGuests) found.baseGuests = MSG.baseGuestsOverMax;
    if (!parsed.success || Object.keys(found).length > 0) {
      setErrors(found);
      focusFirstInvalid(formRef.current);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await onSave(parsed.data);
      clearDraft('cabin');
      notify.success('Домик сохранён');
      onClose();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      const text = describeError(err, 'Ошибка при сохранении домика');
      setSaveError(text);
      notify.error(text);
      console.error(err);
    } finally {
      setSaving(false);
    }
  }

  const text = (
    key: 'name' | 'location' | 'distanceToSea',
    label: string,
    opts: { required?: boolean; hint?: string; placeholder?: string } = {},
  ) => (
    <Field label={label} error={errors[key]} required={opts.required} hint={opts.hint}>
      {(p) => (
        <input
          {...p}
          className="input"
          value={values[key]}
          placeholder={opts.placeholder}
          data-autofocus={key === 'name' ? true : undefined}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  const rubles = (
    key: 'pricePerNight' | 'weekendPricePerNight' | 'extraGuestPerNight' | 'deposit',
    label: string,
    opts: { required?: boolean; hint?: string; placeholder: string },
  ) => (
    <Field label={label} error={errors[key]} required={opts.required} hint={opts.hint}>
      {(p) => (
        <DigitsInput
          {...p}
          value={values[key]}
          placeholder={opts.placeholder}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  const age = (key: 'childFreeUnderAge' | 'childShareUntilAge', label: string, hint: string, error: string) => (
    <Field label={label} error={errors[error]} hint={hint}>
      {(p) => (
        <NumberInput
          {...p}
          min={0}
          max={18}
          step={1}
          value={values[key]}
          placeholder="0"
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  const toggle = (key: 'active' | 'featured', title: string, hint: string) => (
    <label className="switch">
      <input type="checkbox" role="switch" checked={values[key]} onChange={(e) => set(key, e.target.checked)} />
      <span className="switch__track" aria-hidden="true" />
      <span>
        <strong>{title}</strong>
        <span className="hint">{hint}</span>
      </span>
    </label>
  );
  const count = (key: 'bedrooms' | 'bathrooms' | 'maxGuests', label: string) => (
    <Field label={label} error={errors[key]}>
      {(p) => (
        <NumberInput {...p} min={1} max={100} step={1} value={values[key]} onChange={(e) => set(key, e.target.value)} />
      )}
    </Field>
  );

  return (
    <Dialog
      title={cabin ? 'Редактировать домик' : 'Добавить домик'}
      onRequestClose={() => void requestClose()}
      className="modal--form"
    >
      <form ref={formRef} className="cabin-form" onSubmit={submit} noValidate>
        {restored && dirty && (
          <p className="alert alert--info">
            Восстановлены несохранённые изменения. Нажмите «Сохранить», чтобы опубликовать их.
          </p>
        )}
        {text('name', 'Название', { required: true })}
        <Field label="Описание" error={errors.description} required>
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={5}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
            />
          )}
        </Field>
        <div className="form-grid">
          {rubles('pricePerNight', 'Цена за ночь, ₽', { required: true, placeholder: '5000' })}
          {text('distanceToSea', 'До моря', { placeholder: '5 мин' })}
          {text('location', 'Расположение', { placeholder: 'Каспийск, ул. Приморская' })}
          {count('bedrooms', 'Спальни')}
          {count('bathrooms', 'Ванные')}
          {count('maxGuests', 'Гостей, до')}
        </div>

        <fieldset className="cabin-pricing">
          <legend className="cabin-pricing__title">Выходные и гости</legend>
          <div className="form-grid">
            {rubles('weekendPricePerNight', 'Цена в выходные, ₽ за ночь', {
              hint: 'Пусто — выходные по обычной цене',
              placeholder: 'Как в будни',
            })}
            <Field label="Гостей в цене" error={errors.baseGuests} hint="Пусто — цена за всех, сколько вмещает домик">
              {(p) => (
                <NumberInput
                  {...p}
                  min={1}
                  max={100}
                  step={1}
                  value={values.baseGuests}
                  placeholder="Все"
                  onChange={(e) => set('baseGuests', e.target.value)}
                />
              )}
            </Field>
            {rubles('extraGuestPerNight', 'Доплата за каждого следующего гостя, ₽ за ночь', {
              hint: 'Пусто или 0 — без доплаты',
              placeholder: '0',
            })}
          </div>
          <fieldset className="weekdays" aria-describedby="weekend-nights-hint">
            <legend className="label">Какие ночи считать выходными</legend>
            <div className="weekdays__days">
              {WEEKDAYS.map((d) => (
                <label key={d.day} className="weekdays__day">
                  <input
                    type="checkbox"
                    checked={values.weekendNights.includes(d.day)}
                    onChange={(e) =>
                      set(
                        'weekendNights',
                        byDay(
                          e.target.checked
                            ? [...values.weekendNights, d.day]
                            : values.weekendNights.filter((n) => n !== d.day),
                        ),
                      )
                    }
                  />
                  <span>
                    {d.short}
                    <span className="visually-hidden"> ({d.name})</span>
                  </span>
                </label>
              ))}
            </div>
            <span className="hint" id="weekend-nights-hint">
              Ночь считается по дню заезда: «Пт» — ночь с пятницы на субботу. Обычно это Пт и Сб.
            </span>
            {errors.weekendNights && <span className="error-text">{errors.weekendNights}</span>}
          </fieldset>
          {rubles('deposit', 'Залог, ₽', { hint: `Пусто или 0 — без залога. ${DEPOSIT_HOLD_NOTE}`, placeholder: '0' })}
        </fieldset>

        <fieldset className="cabin-pricing">
          <legend className="cabin-pricing__title">Дети и животные</legend>
          <div className="form-grid">
            {age('childFreeUnderAge', 'Дети бесплатно до, лет', 'Пусто — бесплатных нет', 'children.freeUnderAge')}
            {age(
              'childShareUntilAge',
              'Детская цена до, лет',
              'Старше — как взрослые. Пусто — все дети как взрослые',
              'children.sharePercentUntilAge',
            )}
            <Field
              label="Детская цена, % от доплаты за гостя"
              error={errors['children.sharePercent']}
              hint="За ночь, даже если ребёнок входит в «Гостей в цене»"
            >
              {(p) => (
                <NumberInput
                  {...p}
                  min={0}
                  max={100}
                  step={1}
                  value={values.childSharePercent}
                  placeholder="0"
                  onChange={(e) => set('childSharePercent', e.target.value)}
                />
              )}
            </Field>
          </div>
          <label className="check">
            <input
              type="checkbox"
              checked={values.petsAllowed}
              onChange={(e) => set('petsAllowed', e.target.checked)}
            />{' '}
            Можно с животными
          </label>
          {values.petsAllowed && (
            <div className="form-grid">
              <Field label="Доплата за животных, ₽" error={errors['pets.fee']} hint="Пусто или 0 — без доплаты">
                {(p) => (
                  <DigitsInput
                    {...p}
                    value={values.petsFee}
                    placeholder="0"
                    onChange={(e) => set('petsFee', e.target.value)}
                  />
                )}
              </Field>
              <Field label="Доплата считается" error={errors['pets.per']}>
                {(p) => (
                  <select
                    {...p}
                    className="input"
                    value={values.petsPer}
                    onChange={(e) => set('petsPer', e.target.value as PetsRule['per'])}
                  >
                    <option value="stay">за проживание</option>
                    <option value="night">за ночь</option>
                  </select>
                )}
              </Field>
            </div>
          )}
        </fieldset>

        <AmenityPicker value={values.amenities} onChange={(v) => set('amenities', v)} error={errors.amenities} />

        <fieldset className="switches">
          <legend className="visually-hidden">Показ на сайте</legend>
          {toggle('active', 'Активен', ' — домик виден в каталоге')}
          {toggle('featured', 'Рекомендуемый', ' — с отметкой «Популярный»')}
        </fieldset>

        <fieldset className="photos-field">
          <legend className="label">Фотографии</legend>
          <p className="hint">Первое фото — обложка в каталоге. Порядок меняется стрелками или перетаскиванием.</p>
          <PhotoUploader
            images={values.images}
            onChange={setImages}
            max={MAX_IMAGES}
            onBusyChange={setUploading}
            label="Фотографии домика"
          />
          {errors.images && <span className="error-text">{errors.images}</span>}
        </fieldset>

        <div className="modal__footer">
          <div role="alert" className="modal__footer-error">
            {saveError && <p className="alert">{saveError}</p>}
          </div>
          {uploading && <p className="hint">Дождитесь окончания загрузки фото.</p>}
          <div className="modal__actions">
            <button type="button" className="btn btn--secondary" onClick={() => void requestClose()} disabled={saving}>
              Отмена
            </button>
            <button type="submit" className="btn btn--primary" disabled={saving || uploading} aria-busy={saving}>
              {saving ? 'Сохранение...' : 'Сохранить'}
            </button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
