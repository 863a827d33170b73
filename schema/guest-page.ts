// The guest's own page, the cancellation policy and the messages that go by themselves (see
// docs/api.md «The guest's page and messages»). Plain zod and constants, light enough for the
// panel and the guest's page in the browser; the worker builds on the same.
import type { DepositView } from './deposits.ts';
import { z } from 'zod';
import { BOOKING_STATUS_LABELS, type BookingStatus } from './booking-options.ts';
import { addDays, type IsoDate } from './dates.ts';
import { formatDate, plural } from './format.ts';
import { MSG } from './messages.ts';

export { DEFAULT_CANCELLATION, DEFAULT_MESSAGES } from './guest-defaults.ts';
import type { PriceLine } from './payment-options.ts';

/** The guest's page lives at /b/{token}; the token is 36 hex digits (144 random bits). */
export const GUEST_PAGE_PATH = '/b/';
export const GUEST_TOKEN_PATTERN = /^[0-9a-f]{36}$/;
export const guestPageUrl = (origin: string, token: string) =>
  `${origin.replace(/\/+$/, '')}${GUEST_PAGE_PATH}${token}`;
/** The review link of the message sent after departure: the guest's page opens its review form. */
export const reviewUrl = (origin: string, token: string) => `${guestPageUrl(origin, token)}#review`;

/**
 * A guest's page (and the review link) stops working this many days after departure: the page
 * shows a guest's personal data, kept no longer than needed (152-ФЗ). It outlives the review
 * request (sent at most REVIEW_DAYS_AFTER_MAX days after departure) by a good margin.
 */
export const GUEST_PAGE_DAYS_AFTER_DEPARTURE = 60;
/** The last day the page answers for a stay ending `checkOut`. */
export const guestPageLastDay = (checkOut: IsoDate): IsoDate => addDays(checkOut, GUEST_PAGE_DAYS_AFTER_DEPARTURE);

// ——— The cancellation policy («Настройки» → «Отмена бронирования»).

export const CANCELLATION_BOUNDS = { freeUntilDays: { min: 0, max: 365 }, keepPercent: { min: 0, max: 100 } } as const;
/**
 * Free until `freeUntilDays` days before arrival; later, `keepPercent` % of the stay's total is
 * kept (never more than was paid) and the rest of what was paid goes back.
 */
export const cancellationSchema = z.strictObject(
  {
    freeUntilDays: z
      .number({ error: MSG.cancelDaysInvalid })
      .int(MSG.cancelDaysInvalid)
      .min(CANCELLATION_BOUNDS.freeUntilDays.min, MSG.cancelDaysInvalid)
      .max(CANCELLATION_BOUNDS.freeUntilDays.max, MSG.cancelDaysInvalid),
    keepPercent: z
      .number({ error: MSG.cancelKeepInvalid })
      .int(MSG.cancelKeepInvalid)
      .min(CANCELLATION_BOUNDS.keepPercent.min, MSG.cancelKeepInvalid)
      .max(CANCELLATION_BOUNDS.keepPercent.max, MSG.cancelKeepInvalid),
  },
  { error: MSG.badInput },
);
export type CancellationPolicy = z.infer<typeof cancellationSchema>;

/** The booking statuses a guest may cancel from their page. */
export const GUEST_CANCELLABLE = ['new', 'awaiting_payment', 'confirmed'] as const;

export type CancelTerms = {
  /** Whether the guest may cancel now; when not, `reason` says why in Russian. */
  allowed: boolean;
  reason?: string;
  /** The last day cancelling is free (Moscow), or null when it never was (a stay booked inside the period). */
  freeUntil: IsoDate | null;
  free: boolean;
  /** What goes back and what is kept of what was paid, in kopecks. */
  refund: number;
  kept: number;
};

/**
 * What cancelling today gives back, by the policy. `paid` is what was paid (kopecks, refunds
 * already made taken off); the total is the stay's in roubles. Refused on the day of arrival and
 * after: the stay has begun.
 */
export function cancelTerms(
  policy: CancellationPolicy,
  b: { status: string; checkIn: IsoDate; total: number },
  paid: number,
  today: IsoDate,
): CancelTerms {
  const freeUntil = addDays(b.checkIn, -policy.freeUntilDays);
  const free = today <= freeUntil;
  const kept = free ? 0 : Math.min(paid, Math.round(b.total * policy.keepPercent)); // total ₽ × % = kopecks
  const terms = { freeUntil: freeUntil >= today ? freeUntil : null, free, refund: paid - kept, kept };
  if (b.status === 'cancelled') return { ...terms, allowed: false, reason: MSG.guestCancelAlready, refund: 0, kept: 0 };
  if (!(GUEST_CANCELLABLE as readonly string[]).includes(b.status))
    return { ...terms, allowed: false, reason: MSG.guestCancelStatus, refund: 0, kept: 0 };
  if (today >= b.checkIn) return { ...terms, allowed: false, reason: MSG.guestCancelArrived };
  return { ...terms, allowed: true };
}

// ——— The messages that go by themselves (e-mail): templates with placeholders.

export const MESSAGE_KINDS = ['confirmation', 'reminder', 'review'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  confirmation: 'Подтверждение',
  reminder: 'Напоминание перед заездом',
  review: 'Просьба об отзыве',
};
/**
 * Every message a guest may be sent, kept in the outbox until it goes: the owner's templates, and
 * what the site tells by itself (a payment that came too late, given back); to a guest's messenger
 * also the check-in day's message and the payment link the owner sends for a request.
 */
export const GUEST_MESSAGE_KINDS = [...MESSAGE_KINDS, 'refund', 'arrival', 'paylink'] as const;
export type GuestMessageKind = (typeof GUEST_MESSAGE_KINDS)[number];
export const GUEST_MESSAGE_LABELS: Record<GuestMessageKind, string> = {
  ...MESSAGE_KIND_LABELS,
  refund: 'Возврат оплаты',
  arrival: 'В день заезда',
  paylink: 'Ссылка на оплату',
};
/** The check-in day's message to a guest's messenger goes from this Moscow time of that day. */
export const ARRIVAL_MESSAGE_FROM = '08:00';
/** The placeholders a template may hold, with what each becomes. */
export const PLACEHOLDERS = ['{имя}', '{домик}', '{заезд}', '{выезд}', '{ссылка}'] as const;
export const PLACEHOLDER_HINTS: Record<(typeof PLACEHOLDERS)[number], string> = {
  '{имя}': 'имя гостя',
  '{домик}': 'название домика',
  '{заезд}': 'дата заезда',
  '{выезд}': 'дата выезда',
  '{ссылка}': 'ссылка на страницу бронирования (в просьбе об отзыве — на форму отзыва)',
};
export const REMINDER_DAYS_BEFORE_BOUNDS = { min: 1, max: 30 } as const;
export const REVIEW_DAYS_AFTER_BOUNDS = { min: 1, max: 14 } as const;

const templateText = (max: number, required: string) =>
  z.string({ error: MSG.badInput }).trim().min(1, required).max(max, MSG.tooLong);
/** An unknown {…} in a template is a typo the guest would see: refused with its name. */
export const knownPlaceholders = (v: string) =>
  [...v.matchAll(/\{[^{}\s]{1,20}\}/g)].every((m) => (PLACEHOLDERS as readonly string[]).includes(m[0]));
const template = {
  enabled: z.boolean({ error: MSG.badInput }),
  subject: templateText(200, MSG.messageSubjectRequired).refine(knownPlaceholders, MSG.messagePlaceholderUnknown),
  body: templateText(5000, MSG.messageBodyRequired).refine(knownPlaceholders, MSG.messagePlaceholderUnknown),
};
const days = (bounds: { min: number; max: number }, message: string) =>
  z.number({ error: message }).int(message).min(bounds.min, message).max(bounds.max, message);

export const messagesSchema = z.strictObject(
  {
    confirmation: z.strictObject(template, { error: MSG.badInput }),
    reminder: z.strictObject(
      { ...template, daysBefore: days(REMINDER_DAYS_BEFORE_BOUNDS, MSG.reminderDaysInvalid) },
      { error: MSG.badInput },
    ),
    review: z.strictObject(
      { ...template, daysAfter: days(REVIEW_DAYS_AFTER_BOUNDS, MSG.reviewDaysInvalid) },
      { error: MSG.badInput },
    ),
  },
  { error: MSG.badInput },
);
export type MessageSettings = z.infer<typeof messagesSchema>;
export type MessageTemplate = { enabled: boolean; subject: string; body: string };

/** What the placeholders are filled with. Dates as «20 декабря 2026». */
export type MessageFacts = { name: string; cabinName: string; checkIn: IsoDate; checkOut: IsoDate; link: string };

/** A template with its placeholders filled: the e-mail, the preview in the panel and the owner's messenger reply. */
export function renderTemplate(
  t: Pick<MessageTemplate, 'subject' | 'body'>,
  f: MessageFacts,
): { subject: string; text: string } {
  const values: Record<(typeof PLACEHOLDERS)[number], string> = {
    '{имя}': f.name.trim().split(/\s+/)[0] ?? '',
    '{домик}': f.cabinName,
    '{заезд}': formatDate(f.checkIn),
    '{выезд}': formatDate(f.checkOut),
    '{ссылка}': f.link,
  };
  // «{домик}» around a name with its own quotes (Домик «Бриз») would read «Домик «Бриз»»: the name stands alone then.
  const ownQuotes = /[«»"]/.test(f.cabinName);
  const fill = (s: string) =>
    (ownQuotes ? s.replaceAll('«{домик}»', '{домик}') : s).replace(
      /\{[^{}\s]{1,20}\}/g,
      (m) => values[m as keyof typeof values] ?? m,
    );
  return { subject: fill(t.subject).replace(/\s+/g, ' ').trim(), text: fill(t.body) };
}

// ——— What the guest's page reads: GET /api/guest/{token}.

export type GuestPageAnswer = {
  id: number;
  status: string;
  cabin: { id: number; name: string };
  checkIn: IsoDate;
  checkOut: IsoDate;
  nights: number;
  /** The adults; the children's ages and pets as the guest gave them. */
  guests: number;
  childrenAges: number[];
  pets: boolean;
  lines: PriceLine[];
  /** Roubles. */
  total: number;
  /** Kopecks: paid (refunds taken off), and what is left to pay. */
  paid: number;
  due: number;
  /** Whether «Оплатить остаток» is offered: something is due, the stay is confirmed, ЮKassa is set. */
  canPay: boolean;
  /** A payment of the rest started and not finished: the guest can go back to ЮKassa's page. */
  pendingPayment?: { amount: number; confirmationUrl: string };
  cancel: CancelTerms & { policy: CancellationPolicy };
  /** What was refunded in all, kopecks. */
  refunded: number;
  checkInTime: string;
  checkOutTime: string;
  /** Once confirmed: the way there and whom to call. */
  instructions?: { address: string; mapUrl: string; text: string; phone: string; email: string; siteName: string };
  /** The stay is over and no review was sent for it yet: the page offers the form. */
  canReview: boolean;
  reviewed: boolean;
  /**
   * The owner connected a Telegram bot for guests and the booking still stands: the page offers
   * «Получать сообщения в Telegram» (`linked`: this guest already tied a chat).
   */
  telegram?: { linked: boolean };
  /**
   * The cabin asks a deposit held on the card (schema/deposits.ts): where it stands; `canPay` when
   * the page offers «Внести залог» today, `confirmationUrl` while a hold started is not finished.
   */
  deposit?: DepositView & { canPay: boolean; confirmationUrl?: string };
  /**
   * «Перенести даты»: whether the guest may move the stay today (else why), until which day, to
   * another cabin or not, and a move waiting for its difference to be paid.
   */
  change?: {
    allowed: boolean;
    reason?: string;
    until: IsoDate;
    anyCabin: boolean;
    /**
     * Where the owner allows another cabin and one takes the party: the cabins offered, the
     * booking's own first, then every other shown one that takes its guests (and pets), by id.
     */
    cabins?: { id: number; name: string }[];
    pending?: {
      checkIn: IsoDate;
      checkOut: IsoDate;
      cabinId: number;
      due: number;
      holdUntil: string;
      confirmationUrl: string;
    };
  };
  /** The same for the owner's MAX bot: «Получать сообщения в MAX». */
  max?: { linked: boolean };
};

// ——— What the page says, the same in the server's HTML (worker/pages/guest-html.ts) and the island.

/** What the guest reads at the top: the booking's state in their words, not the panel's. */
export const GUEST_HEADLINES: Record<BookingStatus, string> = {
  new: 'Заявка отправлена: ждёт подтверждения',
  awaiting_payment: 'Ждём предоплату',
  confirmed: 'Бронирование подтверждено',
  cancelled: 'Бронирование отменено',
  declined: 'Заявка отклонена',
  expired: 'Бронь истекла: предоплата не поступила',
};
export { GUEST_PAGE_DATA_ID, quotedName } from './guest-page-texts.ts';
/** Where the server puts the page in its shell (site/pages/shell/guest.astro). */
export const GUEST_PAGE_MARKER = '<!--guest-page-->';
/** Where the address of the page's buttons' module goes in the built shell (scripts/build-site.ts writes it in). */
export const GUEST_MODULE_MARKER = '__GUEST_MODULE_URL__';
/** That module's file name in _astro/: site/islands/GuestPage.tsx. */
export const GUEST_MODULE_CHUNK = /^GuestPage\.[\w-]+\.js$/;
/** A status the page does not know (a newer server) is shown as a request. */
export const guestStatusOf = (status: string): BookingStatus =>
  status in GUEST_HEADLINES ? (status as BookingStatus) : 'new';
export const guestStatusLabel = (status: BookingStatus) => BOOKING_STATUS_LABELS[status];

const DAYS = ['день', 'дня', 'дней'] as const;
/** The owner's cancellation policy in words, with the last free day of this stay when it is still ahead. */
export function cancelPolicyText(policy: CancellationPolicy, freeUntil: IsoDate | null): string {
  if (policy.freeUntilDays === 0) return 'Отмена бесплатна до дня заезда.';
  return (
    `Отмена бесплатна не позднее чем за ${policy.freeUntilDays} ${plural(policy.freeUntilDays, DAYS)} до заезда${freeUntil ? ` (до ${formatDate(freeUntil)} включительно)` : ''}.` +
    (policy.keepPercent > 0
      ? ` Позже удерживаем ${policy.keepPercent} % стоимости проживания, но не больше оплаченного.`
      : ' Позже — тоже без удержаний.')
  );
}

/** The answer to POST /api/guest/{token}/cancel (kopecks). */
export type GuestCancelAnswer = { status: 'cancelled'; refunded: number };
