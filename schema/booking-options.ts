// Booking requests' statuses, channels and limits (docs/api.md «Calendar and booking»):
// plain constants, light enough for the booking card and the pages; schema/bookings.ts holds
// the zod schemas built on them.

export const BOOKING_STATUSES = ['new', 'confirmed', 'declined', 'cancelled', 'awaiting_payment', 'expired'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  new: 'Новая',
  confirmed: 'Подтверждена',
  declined: 'Отклонена',
  cancelled: 'Отменена',
  // With prepayment: the nights are held while the guest pays, then freed if unpaid.
  awaiting_payment: 'Ждёт оплаты',
  expired: 'Бронь истекла',
};
/** The statuses the owner sets by hand in «Заявки»; the other two are the payment's to set. */
export const OWNER_STATUSES = ['new', 'confirmed', 'declined', 'cancelled'] as const;
export type OwnerStatus = (typeof OWNER_STATUSES)[number];

/** How the visitor goes on after the request: the spec's WhatsApp, or Telegram, MAX, a call. */
export const BOOKING_CHANNELS = ['whatsapp', 'telegram', 'max', 'phone'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];
export const BOOKING_CHANNEL_LABELS: Record<BookingChannel, string> = {
  whatsapp: 'WhatsApp',
  telegram: 'Telegram',
  max: 'MAX',
  phone: 'Звонок',
};

/** The longest stay one request may ask for. */
export const BOOKING_MAX_NIGHTS = 90;
/**
 * A request's name, phone, e-mail and comment are kept this long after it came in (and at least
 * until its stay is over), then erased by the schedule (privacy page, 152-ФЗ). The owner may set
 * another period in «Настройки» (bookingRetentionYears), within these bounds.
 */
export const BOOKING_RETENTION_YEARS = 3;
export const BOOKING_RETENTION_BOUNDS = { min: 1, max: 10 } as const;
/** Requests accepted from one address within the window before 429. */
export const BOOKING_THROTTLE = { max: 10, windowMs: 60 * 60 * 1000 } as const;
