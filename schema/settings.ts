import { z } from 'zod';
import { changeSettingsSchema } from './date-change.ts';
import { DEPOSIT_ASK_DAYS_MAX, DEPOSIT_MSG, DEPOSIT_WITHOUT_HOLD } from './deposits.ts';
import { MSG } from './messages.ts';
import { imageUrl } from './cabin-input.ts';
import { DEFAULT_SETTINGS } from './defaults.ts';
import { BOOKING_CHANNELS, BOOKING_RETENTION_BOUNDS } from './booking-options.ts';
import { cancellationSchema, messagesSchema } from './guest-page.ts';
import {
  BOOKING_MODES,
  HOLD_MINUTES_BOUNDS,
  PREPAYMENT_KINDS,
  PREPAYMENT_PERCENT_BOUNDS,
  TOURIST_TAX_RATE_MAX,
  VAT_CODE_VALUES,
  type VatCode,
} from './payment-options.ts';

const text = (max: number) => z.string({ error: MSG.badInput }).trim().max(max, MSG.tooLong);
const emailOrEmpty = text(200).refine((v) => v === '' || z.email().safeParse(v).success, MSG.reviewEmailInvalid);
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, MSG.timeInvalid);

/** The fields that exist both at the top level and inside contactInfo. */
export const contactInfoSchema = z.object({
  siteName: text(80),
  phone: text(40),
  email: emailOrEmpty,
  address: text(300),
  footerDescription: text(600),
  footerPhone: text(40),
  footerEmail: emailOrEmpty,
  footerAddress: text(300),
  mapEmbedCode: text(5000),
});
export const CONTACT_FIELDS = contactInfoSchema.keyof().options;

/** A Telegram username as people paste it: «@kaspiy_dom», «t.me/kaspiy_dom» or the full link → «kaspiy_dom». */
export const normalizeTelegram = (v: string) =>
  v
    .trim()
    .replace(/^(https?:\/\/)?(www\.)?(t\.me|telegram\.me)\//i, '')
    .replace(/^@/, '')
    .replace(/\/+$/, '');
const telegramUsername = text(100)
  .transform(normalizeTelegram)
  .refine((v) => v === '' || /^[A-Za-z][A-Za-z0-9_]{4,31}$/.test(v), MSG.telegramInvalid);
/** A link to the owner's profile or chat in MAX. */
const maxLink = text(300).refine((v) => {
  if (v === '') return true;
  try {
    const url = new URL(v);
    return (
      url.protocol === 'https:' &&
      (url.hostname === 'max.ru' || url.hostname.endsWith('.max.ru')) &&
      url.pathname.length > 1
    );
  } catch {
    return false;
  }
}, MSG.maxLinkInvalid);
const bookingChannels = z
  .array(z.enum(BOOKING_CHANNELS, { error: MSG.badInput }))
  .min(1, MSG.channelsRequired)
  .max(BOOKING_CHANNELS.length)
  .refine((list) => new Set(list).size === list.length, MSG.badInput);

/** The messengers of «Контакты»: which ways the booking card and contacts page offer. */
export const messengerSchema = z.object({ telegramUsername, maxLink, bookingChannels });
export const MESSENGER_FIELDS = messengerSchema.keyof().options;

/** The record of the classified accommodation in the state register (decree № 1951): any https page. */
const registryUrl = text(500).refine((v) => {
  if (v === '') return true;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}, MSG.registryUrlInvalid);

/**
 * The Webmaster verification code as the owner pastes it: the code itself, or the whole meta tag
 * Yandex Webmaster shows (`<meta name="yandex-verification" content="…" />`) → the code.
 */
export const webmasterCodeOf = (v: string) => /content\s*=\s*["']([^"']*)["']/i.exec(v)?.[1]?.trim() ?? v.trim();

/**
 * «Продвижение», the owner's alone: Yandex Webmaster's verification code (a meta tag on the home
 * page), the Metrika counter (loaded only after the visitor agrees) and the IndexNow key (made by
 * the server when empty; served at /{key}.txt). An empty string is «not set».
 */
export const promotionSchema = z.strictObject(
  {
    webmasterCode: text(300)
      .transform(webmasterCodeOf)
      .refine((v) => v === '' || /^[A-Za-z0-9_-]{6,64}$/.test(v), MSG.webmasterCodeInvalid)
      .default(''),
    metrikaId: z
      .union([z.string(), z.number()], { error: MSG.metrikaIdInvalid })
      .transform((v) => String(v).replace(/\s+/g, ''))
      .refine((v) => v === '' || /^[1-9]\d{3,11}$/.test(v), MSG.metrikaIdInvalid)
      .default(''),
    indexNowKey: text(128)
      .refine((v) => v === '' || /^[A-Za-z0-9-]{8,128}$/.test(v), MSG.indexNowKeyInvalid)
      .default(''),
  },
  { error: MSG.badInput },
);
export type Promotion = z.infer<typeof promotionSchema>;

const wholeRoubles = (max: number, message: string) =>
  z.number({ error: message }).int(message).min(0, message).max(max, message);

/**
 * How a stay is booked and paid: the mode, the prepayment, how long unpaid nights are
 * held, the cleaning fee and the tourist tax in every total, the VAT code of the receipts.
 */
export const paymentSettingsSchema = z.object({
  bookingMode: z.enum(BOOKING_MODES, { error: MSG.bookingModeInvalid }),
  prepayment: z.strictObject(
    {
      kind: z.enum(PREPAYMENT_KINDS, { error: MSG.prepaymentInvalid }),
      percent: z
        .number({ error: MSG.prepaymentInvalid })
        .int(MSG.prepaymentInvalid)
        .min(PREPAYMENT_PERCENT_BOUNDS.min, MSG.prepaymentInvalid)
        .max(PREPAYMENT_PERCENT_BOUNDS.max, MSG.prepaymentInvalid),
    },
    { error: MSG.prepaymentInvalid },
  ),
  holdMinutes: z
    .number({ error: MSG.holdMinutesInvalid })
    .int(MSG.holdMinutesInvalid)
    .min(HOLD_MINUTES_BOUNDS.min, MSG.holdMinutesInvalid)
    .max(HOLD_MINUTES_BOUNDS.max, MSG.holdMinutesInvalid),
  cleaningFee: wholeRoubles(1_000_000, MSG.cleaningFeeInvalid),
  touristTax: z.strictObject(
    {
      enabled: z.boolean({ error: MSG.badInput }),
      ratePercent: z
        .number({ error: MSG.touristTaxRateInvalid })
        .min(0, MSG.touristTaxRateInvalid)
        .max(TOURIST_TAX_RATE_MAX, MSG.touristTaxRateInvalid)
        .refine(
          (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
          MSG.touristTaxRateInvalid,
        ),
      minPerNight: wholeRoubles(10_000, MSG.touristTaxMinInvalid),
    },
    { error: MSG.badInput },
  ),
  vatCode: z.custom<VatCode>((v) => VAT_CODE_VALUES.includes(v as VatCode), MSG.vatCodeInvalid),
  /**
   * How many days before arrival the guest's page asks for a cabin's deposit; whether the ЮKassa
   * shop takes holds; and what a stay a hold cannot serve gets (none, or a deposit paid and refunded).
   */
  deposit: z.strictObject(
    {
      askDaysBefore: z
        .number({ error: MSG.depositAskDaysInvalid })
        .int(MSG.depositAskDaysInvalid)
        .min(0, MSG.depositAskDaysInvalid)
        .max(DEPOSIT_ASK_DAYS_MAX, MSG.depositAskDaysInvalid),
      shopHolds: z.boolean({ error: DEPOSIT_MSG.shopHoldsInvalid }),
      withoutHold: z.enum(DEPOSIT_WITHOUT_HOLD, { error: DEPOSIT_MSG.withoutHoldInvalid }),
    },
    { error: MSG.depositAskDaysInvalid },
  ),
  /** Until how many days before arrival the guest may move the dates on their page, and to another cabin or not. */
  changes: changeSettingsSchema,
});
export const PAYMENT_SETTING_FIELDS = paymentSettingsSchema.keyof().options;
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

export const featureSchema = z.object({ title: text(100), description: text(500) });

export const settingsSchema = contactInfoSchema
  .extend({
    ownerName: text(200),
    heroTitle: text(150),
    heroSubtitle: text(400),
    whyChooseUsTitle: text(150),
    whyChooseUsSubtitle: text(400),
    whyChooseUsFeatures: z.array(featureSchema).max(12),
    galleryImages: z.array(imageUrl).max(60),
    checkInTime: time,
    checkOutTime: time,
    /** Since 1 September 2025 a place of stay is let only with an entry in the register: its number and link. */
    registryNumber: text(60),
    registryUrl,
    bookingRetentionYears: z
      .number({ error: MSG.retentionInvalid })
      .int(MSG.retentionInvalid)
      .min(BOOKING_RETENTION_BOUNDS.min, MSG.retentionInvalid)
      .max(BOOKING_RETENTION_BOUNDS.max, MSG.retentionInvalid),
    contactInfo: contactInfoSchema,
    cancellation: cancellationSchema,
    messages: messagesSchema,
    promotion: promotionSchema,
  })
  .extend(messengerSchema.shape)
  .extend(paymentSettingsSchema.shape);

/**
 * PUT /api/settings: any subset of the fields, nested contactInfo partial too. Unknown keys
 * are dropped, so the panel may send back the whole object it read.
 */
export const settingsUpdateSchema = settingsSchema.extend({ contactInfo: contactInfoSchema.partial() }).partial();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;
export type ContactInfo = z.infer<typeof contactInfoSchema>;
export type Feature = z.infer<typeof featureSchema>;
export type MessengerSettings = z.infer<typeof messengerSchema>;
export type StoredSettings = Partial<Omit<Settings, 'contactInfo'>> & { contactInfo?: Partial<ContactInfo> };

/**
 * Settings as everyone reads them: stored top-level values win over stored contactInfo ones,
 * which win over the built-in defaults. contactInfo is filled the same way, so both levels agree.
 */
export function resolveSettings(stored: StoredSettings): Settings {
  const nested = stored.contactInfo ?? {};
  const contact = {} as Record<keyof ContactInfo, string>;
  for (const field of CONTACT_FIELDS) {
    contact[field] = stored[field] ?? nested[field] ?? DEFAULT_SETTINGS[field];
  }
  return {
    ...DEFAULT_SETTINGS,
    ...stripUndefined(stored),
    // Deposit settings stored before a field was added read that field's default.
    deposit: { ...DEFAULT_SETTINGS.deposit, ...stored.deposit },
    ...contact,
    contactInfo: { ...contact },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && k !== 'contactInfo')) as Partial<T>;
}
