import { z } from 'zod';
import { formatStayDates } from './format.ts';
import { guestPageUrl, type GuestMessageKind } from './guest-page.ts';
import { MSG } from './messages.ts';

// SMS to a guest who tied no messenger (docs/operations.md «SMS for guests»): the owner's own
// account at an SMS gateway sends the reminder before arrival, with the link to the guest's page,
// to a guest who left a phone. Off until the owner connects the gateway in «Настройки».

/** SMS.ru's address; env SMS_API_URL overrides it (tests, `npm start`, a proxy). */
export const SMS_API_DEFAULT = 'https://sms.ru';

/** The gateways the setting names; only SMS.ru sends for now (SMSC.ru is refused with a reason). */
export const SMS_PROVIDERS = ['smsru', 'smsc'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];
export const SMS_PROVIDER_LABELS: Record<SmsProvider, string> = { smsru: 'SMS.ru', smsc: 'SMSC.ru' };
export const SMS_SENDING_PROVIDERS: readonly SmsProvider[] = ['smsru'];

/** The highest monthly cap the panel takes, in roubles. */
export const SMS_CAP_MAX_RUB = 100_000;
/** What the form offers as the cap before the owner chose one, in roubles. */
export const SMS_CAP_DEFAULT_RUB = 500;
/** How long the server waits for the gateway's answer. */
export const SMS_TIMEOUT_MS = 10_000;

// ——— Segments: what a message costs is counted in parts.

/** GSM 03.38's basic characters: a message of these alone goes 7 bits a character. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM's extension table: each of these takes two places. */
const GSM_EXTENDED = '^{}\\[~]|€\f';

export type SmsSegments = { encoding: 'gsm' | 'ucs2'; length: number; parts: number };

/**
 * How many parts a text goes in: Latin text by GSM's alphabet, 160 characters in one message or
 * 153 a part when longer; any other character (Cyrillic) makes the whole message UCS-2, 70 in one
 * message or 67 a part (a part's header takes the rest). UCS-2 counts UTF-16 units, so an emoji
 * takes two.
 */
export function smsSegments(text: string): SmsSegments {
  let gsm = 0;
  let isGsm = true;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) gsm += 1;
    else if (GSM_EXTENDED.includes(ch)) gsm += 2;
    else {
      isGsm = false;
      break;
    }
  }
  if (isGsm) return { encoding: 'gsm', length: gsm, parts: gsm === 0 ? 0 : gsm <= 160 ? 1 : Math.ceil(gsm / 153) };
  const length = text.length;
  return { encoding: 'ucs2', length, parts: length <= 70 ? 1 : Math.ceil(length / 67) };
}

// ——— The phone and the text.

/**
 * A guest's phone as the gateway takes it: digits only, a Russian number with 7 in front
 * (8 912 …, +7 (912) …, 912 …), another country's as written with its code. Undefined for what
 * cannot be a phone number.
 */
export function smsPhone(raw: string): string | undefined {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('8')) return `7${digits.slice(1)}`;
  if (digits.length === 10 && digits.startsWith('9')) return `7${digits}`;
  if (digits.length === 11 && digits.startsWith('7')) return digits;
  if (raw.trim().startsWith('+') && digits.length >= 10 && digits.length <= 15 && !digits.startsWith('0'))
    return digits;
  return undefined;
}

/**
 * The kinds of a booking's messages that go by SMS: the owner's confirmation (the first the guest
 * hears of their page) and the reminder before arrival.
 */
export const SMS_KINDS = ['confirmation', 'reminder'] as const satisfies readonly GuestMessageKind[];

const SMS_TITLES: Record<(typeof SMS_KINDS)[number], string> = {
  confirmation: 'Бронь подтверждена',
  reminder: 'Скоро заезд',
};
/** A cabin's name longer than this is cut, so a message stays within a few parts. */
const SMS_CABIN_NAME_MAX = 30;

/**
 * What goes by SMS for one of a booking's messages: a few words, the cabin and the dates, and the
 * link to the guest's page. Never the owner's template, the address, a door code, the Wi-Fi or any
 * instruction: an SMS is read on the lock screen and kept by the operator, the page shows those
 * to whoever holds the link.
 */
export function smsGuestText(
  kind: (typeof SMS_KINDS)[number],
  stay: { cabinName: string; checkIn: string; checkOut: string; guestToken: string },
  origin: string,
): { subject: string; text: string } {
  const subject = SMS_TITLES[kind];
  const name =
    stay.cabinName.length > SMS_CABIN_NAME_MAX
      ? `${stay.cabinName.slice(0, SMS_CABIN_NAME_MAX - 1).trimEnd()}…`
      : stay.cabinName;
  return {
    subject,
    text: `${subject}: «${name}», ${formatStayDates(stay.checkIn, stay.checkOut)}. Всё о брони: ${guestPageUrl(origin, stay.guestToken)}`,
  };
}

// ——— The panel's settings.

/** The gateway's key as its site shows it (SMS.ru's api_id: hex groups and dashes). */
export const smsKeySchema = z
  .string({ error: MSG.smsKeyRequired })
  .trim()
  .min(1, MSG.smsKeyRequired)
  .max(100, MSG.smsKeyInvalid)
  .regex(/^[A-Za-z0-9_:-]{8,100}$/, MSG.smsKeyInvalid);

/** The sender's name: '' for the gateway's own, else a name it approved (up to 11 Latin letters or digits). */
export const smsSenderSchema = z
  .string({ error: MSG.smsSenderInvalid })
  .trim()
  .max(11, MSG.smsSenderInvalid)
  .regex(/^[A-Za-z0-9 ._-]*$/, MSG.smsSenderInvalid);

/**
 * PUT /api/admin/messengers `sms`: the gateway, its key (left out: the one kept, to change the
 * cap or the sender alone), the sender and the monthly cap in roubles. Every save checks the key
 * with the gateway (balance, senders, a message's price) before it keeps anything.
 */
export const smsSettingsBody = z.object({
  provider: z.enum(SMS_PROVIDERS, { error: MSG.smsProviderInvalid }),
  key: smsKeySchema.optional(),
  sender: smsSenderSchema.optional(),
  monthlyCapRub: z
    .number({ error: MSG.smsCapInvalid })
    .int(MSG.smsCapInvalid)
    .min(0, MSG.smsCapInvalid)
    .max(SMS_CAP_MAX_RUB, MSG.smsCapInvalid),
});
export type SmsSettingsBody = z.infer<typeof smsSettingsBody>;

/** What the panel is told of the gateway: never the key, only its last 4 characters. */
export const smsStatusSchema = z.object({
  connected: z.boolean(),
  provider: z.enum(SMS_PROVIDERS).optional(),
  last4: z.string().nullable(),
  /** The sender's name the messages go from; absent: the gateway's own. */
  sender: z.string().optional(),
  monthlyCapRub: z.number().optional(),
  /** What the gateway said last, when the key was checked or a message went. */
  balanceRub: z.number().optional(),
  /** The sender names the gateway allows this account. */
  senders: z.array(z.string()).optional(),
  /** The price of one part (70 Cyrillic characters) to a Russian mobile, and of the reminder as it goes. */
  price: z.object({ perPartRub: z.number(), reminderParts: z.number().int(), reminderRub: z.number() }).optional(),
  /** This month (Moscow) so far: charged, and held by sends under way. */
  month: z.object({ spentRub: z.number(), reservedRub: z.number() }).optional(),
  checkedAt: z.number().optional(),
  /** The gateway's last refusal, or the cap reached, in words for the owner. */
  error: z.string().optional(),
});
export type SmsStatus = z.infer<typeof smsStatusSchema>;

// ——— SMS.ru's answers (json=1), only the fields used here (unknown ones pass).

const money = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().finite());

export const smsRuBase = z.looseObject({
  status: z.string(),
  status_code: z.coerce.number().optional(),
  status_text: z.string().optional(),
});
export const smsRuBalance = smsRuBase.extend({ balance: money });
export const smsRuSenders = smsRuBase.extend({ senders: z.array(z.string()).default([]) });
const smsRuOne = z.looseObject({
  status: z.string(),
  status_code: z.coerce.number().optional(),
  status_text: z.string().optional(),
  sms_id: z.string().optional(),
  cost: money.optional(),
  sms: z.coerce.number().optional(),
});
export const smsRuPerPhone = smsRuBase.extend({
  sms: z.record(z.string(), smsRuOne).default({}),
  balance: money.optional(),
  total_cost: money.optional(),
  total_sms: z.coerce.number().optional(),
});
