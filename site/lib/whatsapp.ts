// WhatsApp links and their prefilled messages: the booking button and the
// contact form (section 7).
import {
  formatChildren,
  formatDate,
  formatNights,
  formatPrice,
  parseCalendarDate,
  formatLineAmount,
} from '../../schema/format.ts';
import type { PriceLine } from '../../schema/payment-options.ts';

/**
 * The WhatsApp number of a phone: digits only, with a Russian trunk
 * prefix 8 turned into the country code 7: «8 (928) 555-12-34» → «79285551234».
 */
export function whatsappNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('8') ? `7${digits.slice(1)}` : digits;
}

/**
 * A message for a link's query: what a URL must escape is escaped, letters (Cyrillic, «», ₽) stay
 * as they are. The browser sends them as UTF-8 when it follows the link, so WhatsApp reads the same
 * text, and the page carries a third of the bytes of «%D0%97%D0%B4…», which hardly compress.
 */
export const queryText = (text: string) =>
  [...text].map((c) => (c > '\u007f' && /[\p{L}\p{N}«»₽—–…№]/u.test(c) ? c : encodeURIComponent(c))).join('');

/** https://wa.me/<digits>, with ?text=<the message> when there is one. */
export function whatsappLink(phone: string, text?: string): string {
  const base = `https://wa.me/${whatsappNumber(phone)}`;
  return text ? `${base}?text=${queryText(text)}` : base;
}

export interface BookingCabin {
  name: string;
  pricePerNight: number;
  maxGuests: number;
}

/** What the visitor may fill in on the booking card; all optional. */
export interface BookingDetails {
  /** Arrival date, «YYYY-MM-DD». */
  arrival?: string | null;
  /** Departure date, «YYYY-MM-DD». */
  departure?: string | null;
  guests?: number | null;
  /** The children's ages and pets, beside the adults of `guests`. */
  childrenAges?: readonly number[];
  pets?: boolean;
  /** The stay's total when seasons price its nights (the calendar's quote); else nights × price. */
  total?: number | null;
  /** The priced stay's lines (priceStay): the cleaning fee and the tourist tax are named before the total. */
  lines?: readonly PriceLine[] | null;
}

export interface BookingStay {
  arrival: string;
  departure: string;
  guests: number;
  nights: number;
  /** In rubles: the quote's total, else nights × price per night. */
  total: number;
}

const DAY_MS = 86_400_000;

/** Nights between two «YYYY-MM-DD» dates, or null unless both are real dates and departure is later. */
export function nightsBetween(arrival: string, departure: string): number | null {
  const a = parseCalendarDate(arrival);
  const d = parseCalendarDate(departure);
  if (!a || !d) return null;
  const nights = (Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS;
  return nights >= 1 ? nights : null;
}

/**
 * The stay, when arrival, departure and guests are all given and valid: real dates,
 * departure after arrival, a whole number of guests from 1 to the cabin's maxGuests.
 * Otherwise null.
 */
export function bookingStay(cabin: BookingCabin, details: BookingDetails = {}): BookingStay | null {
  const { arrival, departure, guests, total } = details;
  if (!arrival || !departure || guests == null) return null;
  if (!Number.isInteger(guests) || guests < 1 || guests > cabin.maxGuests) return null;
  const nights = nightsBetween(arrival, departure);
  if (nights === null) return null;
  return {
    arrival: arrival.trim(),
    departure: departure.trim(),
    guests,
    nights,
    total: total ?? nights * cabin.pricePerNight,
  };
}

/**
 * The priced stay's lines the message names, as the booking card shows them: the nights at each of
 * their prices (weekdays and the weekend, seasons), the guests beyond the price, the discount, the
 * promo code, the extras, the cleaning fee, the tourist tax. One line of nights at the price the
 * message's first line names already says nothing «Итого за N ночей» does not, and is left out.
 */
function messageLines(lines: readonly PriceLine[], nights: number, pricePerNight: number): readonly PriceLine[] {
  const nightLines = lines.filter((l) => l.kind === 'nights');
  const plain = nightLines.length === 1 && nightLines[0]!.amount === nights * pricePerNight;
  return plain ? lines.filter((l) => l.kind !== 'nights') : lines;
}

/**
 * The booking message:
 *   Здравствуйте! Хочу забронировать «Домик у моря» (12 500 ₽ за ночь).
 * and, with a valid stay,
 *   Заезд: 5 марта 2026
 *   Выезд: 8 марта 2026
 *   Гостей: 2
 *   Итого за 3 ночи: 37 500 ₽
 * (with every line of the priced stay but a lone line of nights at that price, each on a line of
 * its own before the total: «5 000 ₽ × 1 ночь: 5 000 ₽», «Промокод LETO 10 %: −2 200 ₽», «Баня:
 * 2 000 ₽», «Уборка: 1 500 ₽»), then
 *   Подскажите, пожалуйста, свободны ли эти даты?
 * or, without one,
 *   Подскажите, пожалуйста, какие даты свободны?
 */
export function bookingMessage(cabin: BookingCabin, details?: BookingDetails): string {
  const lines = [
    `Здравствуйте! Хочу забронировать «${cabin.name.trim()}» (${formatPrice(cabin.pricePerNight)} за ночь).`,
  ];
  const stay = bookingStay(cabin, details);
  if (stay) {
    lines.push(
      `Заезд: ${formatDate(stay.arrival)}`,
      `Выезд: ${formatDate(stay.departure)}`,
      `Гостей: ${stay.guests}`,
      ...(details?.childrenAges?.length ? [`Дети: ${formatChildren(details.childrenAges)}`] : []),
      ...(details?.pets ? ['С животными'] : []),
      ...messageLines(details?.lines ?? [], stay.nights, cabin.pricePerNight).map(
        (l) => `${l.label}: ${formatLineAmount(l.amount)}`,
      ),
      `Итого за ${formatNights(stay.nights)}: ${formatPrice(stay.total)}`,
      'Подскажите, пожалуйста, свободны ли эти даты?',
    );
  } else {
    lines.push('Подскажите, пожалуйста, какие даты свободны?');
  }
  return lines.join('\n');
}

export interface ContactFormMessage {
  name: string;
  email: string;
  phone?: string | null;
  message: string;
}

/**
 * The contact form's message:
 *   Здравствуйте! Сообщение с сайта.
 *   Имя: …
 *   E-mail: …
 *   Телефон: …      (only when a phone was given)
 *   Сообщение: …
 */
export function contactMessage(form: ContactFormMessage): string {
  const phone = form.phone?.trim();
  return [
    'Здравствуйте! Сообщение с сайта.',
    `Имя: ${form.name.trim()}`,
    `E-mail: ${form.email.trim()}`,
    ...(phone ? [`Телефон: ${phone}`] : []),
    `Сообщение: ${form.message.trim()}`,
  ].join('\n');
}
