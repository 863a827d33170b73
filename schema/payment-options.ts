// Prepayment and the charges of a stay (docs/api.md «Prepayment»): plain constants and the
// one function that prices a stay, light enough (no zod, no drizzle) for the booking card, the
// search page and the worker alike.
import { formatNights, formatNumber, formatPrice, NBSP } from './format.ts';

/** «Заявка» (today's flow) or «Бронирование с предоплатой». */
export const BOOKING_MODES = ['request', 'prepayment'] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];
export const BOOKING_MODE_LABELS: Record<BookingMode, string> = {
  request: 'Заявка',
  prepayment: 'Бронирование с предоплатой',
};

/** How much is paid up front: a percentage of the total, or the first night. */
export const PREPAYMENT_KINDS = ['percent', 'firstNight'] as const;
export type PrepaymentKind = (typeof PREPAYMENT_KINDS)[number];
export type Prepayment = { kind: PrepaymentKind; percent: number };
export const PREPAYMENT_PERCENT_BOUNDS = { min: 1, max: 100 } as const;

/** How long unpaid nights are held for the guest who is paying, in minutes. */
export const HOLD_MINUTES_DEFAULT = 30;
export const HOLD_MINUTES_BOUNDS = { min: 5, max: 1440 } as const;

/**
 * The tourist tax (Tax Code ch. 33.1): a percentage of the accommodation's price, at least a
 * minimum per night; each region sets its rate (1 % in 2025, up to 5 % by 2029). Flats let by
 * the day outside the register do not charge it, so it can be switched off.
 */
export type TouristTax = { enabled: boolean; ratePercent: number; minPerNight: number };
export const TOURIST_TAX_DEFAULT: TouristTax = { enabled: false, ratePercent: 2, minPerNight: 100 };
export const TOURIST_TAX_RATE_MAX = 5;

/**
 * VAT codes of ЮKassa's receipts (vat_code) the owner may choose, with the calculated rate a
 * prepayment's receipt must carry (54-ФЗ: an advance is taxed at the calculated rate).
 * Самозанятый, УСН and patent owners choose «Без НДС».
 */
export const VAT_CODES = {
  1: { label: 'Без НДС (самозанятый, УСН, патент)', prepaymentCode: 1 },
  2: { label: 'НДС 0 %', prepaymentCode: 2 },
  7: { label: 'НДС 5 % (УСН с НДС)', prepaymentCode: 9 },
  8: { label: 'НДС 7 % (УСН с НДС)', prepaymentCode: 10 },
  3: { label: 'НДС 10 %', prepaymentCode: 5 },
  11: { label: 'НДС 22 %', prepaymentCode: 12 },
} as const;
export type VatCode = keyof typeof VAT_CODES;
export const VAT_CODE_VALUES = Object.keys(VAT_CODES).map(Number) as VatCode[];

/** The charges of a stay beyond its nights, from the settings. */
export type StayCharges = { cleaningFee: number; touristTax: TouristTax };
export const NO_CHARGES: StayCharges = { cleaningFee: 0, touristTax: { ...TOURIST_TAX_DEFAULT } };

/** The nights of a stay at one price, as quoteStay (schema/pricing.ts) gives them. */
export type NightsPart = { start: string; end: string; nights: number; pricePerNight: number };

/**
 * One line of a priced stay, in whole roubles: nights at a price, guests beyond the price, the
 * children (a share of an extra guest's price, or free), pets, the
 * discount and the promo code (negative), an extra, the cleaning fee, the tourist tax
 * (schema/pricing.ts quoteStay).
 */
export type PriceLine = {
  kind: 'nights' | 'extraGuests' | 'children' | 'discount' | 'promo' | 'extra' | 'pets' | 'fee' | 'tax';
  label: string;
  amount: number;
};
export type PricedStay = { nights: number; lines: PriceLine[]; total: number };

/** The nights of a stay as lines, one per run at one price: «5 000 ₽ × 3 ночи». */
export const nightsLines = (parts: readonly NightsPart[]): PriceLine[] =>
  parts.map((p) => ({
    kind: 'nights',
    label: `${formatPrice(p.pricePerNight)} × ${formatNights(p.nights)}`,
    amount: p.pricePerNight * p.nights,
  }));

/** The charges of the settings after the accommodation: the cleaning fee, then the tourist tax on `lodging` (at least its minimum per night). */
export function chargeLines(lodging: number, nights: number, charges: StayCharges): PriceLine[] {
  const lines: PriceLine[] = [];
  if (charges.cleaningFee > 0) lines.push({ kind: 'fee', label: 'Уборка', amount: charges.cleaningFee });
  const tax = touristTaxOf(lodging, nights, charges.touristTax);
  if (tax > 0)
    lines.push({
      kind: 'tax',
      label: `Туристический налог ${String(charges.touristTax.ratePercent).replace('.', ',')}${NBSP}%`,
      amount: tax,
    });
  return lines;
}

/**
 * A stay of these nights with the settings' charges and nothing else (the settings' example, the
 * tests' expectations): the lines of schema/pricing.ts quoteStay, which prices every real stay.
 */
export function priceStay(parts: readonly NightsPart[], charges: StayCharges): PricedStay {
  const lines = nightsLines(parts);
  const nights = parts.reduce((n, p) => n + p.nights, 0);
  lines.push(
    ...chargeLines(
      lines.reduce((s, l) => s + l.amount, 0),
      nights,
      charges,
    ),
  );
  return { nights, lines, total: lines.reduce((s, l) => s + l.amount, 0) };
}

/** The tourist tax on `lodging` roubles for `nights` nights: the rate, but not less than the minimum per night. */
export function touristTaxOf(lodging: number, nights: number, tax: TouristTax): number {
  if (!tax.enabled || nights === 0) return 0;
  return Math.max(Math.round((lodging * tax.ratePercent) / 100), tax.minPerNight * nights);
}

/** The prepayment of a priced stay, in kopecks: a percentage of the total, or the first night. */
export function prepaymentKopecks(
  priced: Pick<PricedStay, 'total'>,
  firstNightPrice: number,
  prepayment: Prepayment,
): number {
  const kopecks =
    prepayment.kind === 'firstNight'
      ? firstNightPrice * 100
      : Math.round((priced.total * 100 * prepayment.percent) / 100);
  return Math.min(Math.max(kopecks, 100), priced.total * 100);
}

/** «1 234,50 ₽» from kopecks; whole roubles without the kopecks. */
export function formatKopecks(kopecks: number): string {
  return kopecks % 100 === 0
    ? formatPrice(kopecks / 100)
    : `${formatNumber(Math.floor(kopecks / 100))},${String(kopecks % 100).padStart(2, '0')}${NBSP}₽`;
}
