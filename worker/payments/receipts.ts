// What the 54-ФЗ receipts of a stay say (docs/operations.md «Payments»; «Чеки от ЮKassa»): an item
// per line of the priced stay, each a service (the accommodation less its discount and code, each
// extra, the cleaning fee, the tourist tax), scaled to what is paid; the prepayment's receipt at the
// calculated VAT rate with its payment_mode; the refund's the same items; the settlement at
// check-in offsets the prepayment in full payment.
import { formatStayDates } from '../../schema/format.ts';
import { VAT_CODES, type VatCode } from '../../schema/payment-options.ts';
import type { Booking } from '../../schema/tables.ts';
import { rub, type Receipt, type ReceiptItem } from './yookassa.ts';

/** ЮKassa takes a phone as digits with the country code: +7 (928) 555-12-34 → 79285551234. */
export function receiptPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 10) return `7${digits}`;
  if (digits.length === 11 && digits.startsWith('8')) return `7${digits.slice(1)}`;
  return digits;
}

/** The guest the receipt goes to: the e-mail when they left one, else the phone. */
const customerOf = (b: Pick<Booking, 'email' | 'phone'>) =>
  b.email ? { email: b.email } : { phone: receiptPhone(b.phone) };

/** «Проживание: «Домик у моря», 20–23 декабря 2026» (ЮKassa keeps 128 characters). */
const stayItem = (b: Pick<Booking, 'checkIn' | 'checkOut'>, cabinName: string) =>
  `Проживание: «${cabinName}», ${formatStayDates(b.checkIn, b.checkOut)}`.slice(0, 128);

type Stay = Pick<Booking, 'email' | 'phone' | 'checkIn' | 'checkOut' | 'total'> & { lines?: Booking['lines'] };

/** Lines folded into the accommodation: its nights, the guests beyond the price, the children, the discount and the code. */
const LODGING = new Set(['nights', 'extraGuests', 'children', 'discount', 'promo']);

/**
 * The receipt's items of `kopecks` paid for a stay: one per line of its price (the accommodation
 * as one, the rest as they are), each its share of what is paid, in kopecks that add up exactly
 * (the largest remainders get the odd kopecks). A stay stored before its lines were kept is one item.
 */
export function stayItems(b: Stay, cabinName: string, kopecks: number): { description: string; kopecks: number }[] {
  const lodging = (b.lines ?? []).filter((l) => LODGING.has(l.kind)).reduce((sum, l) => sum + l.amount, 0);
  const parts = b.lines?.length
    ? [
        { description: stayItem(b, cabinName), roubles: lodging },
        ...b.lines
          .filter((l) => !LODGING.has(l.kind))
          .map((l) => ({ description: l.label.slice(0, 128), roubles: l.amount })),
      ]
    : [{ description: stayItem(b, cabinName), roubles: b.total }];
  const whole = parts.filter((p) => p.roubles > 0);
  const total = whole.reduce((sum, p) => sum + p.roubles, 0);
  if (total <= 0) return [{ description: stayItem(b, cabinName), kopecks }];
  const shares = whole.map((p) => {
    const exact = (p.roubles * kopecks) / total;
    return { description: p.description, kopecks: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = kopecks - shares.reduce((sum, p) => sum + p.kopecks, 0);
  for (const p of [...shares].sort((x, y) => y.rest - x.rest)) {
    if (left <= 0) break;
    p.kopecks += 1;
    left -= 1;
  }
  return shares.filter((p) => p.kopecks > 0).map(({ description, kopecks: k }) => ({ description, kopecks: k }));
}

const items = (
  b: Stay,
  cabinName: string,
  kopecks: number,
  vat: number,
  mode: ReceiptItem['payment_mode'],
): ReceiptItem[] =>
  stayItems(b, cabinName, kopecks).map((i) => ({
    description: i.description,
    quantity: '1.00',
    amount: rub(i.kopecks),
    vat_code: vat,
    payment_mode: mode,
    payment_subject: 'service',
  }));

/**
 * The receipt of a payment before the stay (the prepayment, the rest paid from the guest's page)
 * and of its refund: partial, or full when the payment is the whole stay's price. A refund of a
 * part of a payment (a guest's cancellation) keeps its payment's mode: `paymentKopecks`.
 */
export function prepaymentReceipt(
  b: Stay,
  cabinName: string,
  kopecks: number,
  vatCode: VatCode,
  paymentKopecks = kopecks,
): Receipt {
  const mode = paymentKopecks >= b.total * 100 ? 'full_prepayment' : 'partial_prepayment';
  return { customer: customerOf(b), items: items(b, cabinName, kopecks, VAT_CODES[vatCode].prepaymentCode, mode) };
}

/** The settlement receipt at check-in: the service is provided, the prepayment counts toward it. */
export function settlementReceipt(b: Stay, cabinName: string, kopecks: number, vatCode: VatCode): Receipt {
  return { customer: customerOf(b), items: items(b, cabinName, kopecks, vatCode, 'full_payment') };
}

/**
 * The receipt of a deposit: one item, the deposit of this stay, when the hold is made; the part
 * kept, with the owner's reason, when it is captured (full payment: nothing is owed after it).
 */
export function depositReceipt(
  b: Pick<Booking, 'email' | 'phone' | 'checkIn' | 'checkOut'>,
  cabinName: string,
  kopecks: number,
  vatCode: VatCode,
  reason?: string,
): Receipt {
  const description = reason
    ? `Удержание из залога: ${reason}`
    : `Залог: «${cabinName}», ${formatStayDates(b.checkIn, b.checkOut)}`;
  return {
    customer: customerOf(b),
    items: [
      {
        description: description.slice(0, 128),
        quantity: '1.00',
        amount: rub(kopecks),
        vat_code: vatCode,
        payment_mode: 'full_payment',
        payment_subject: 'service',
      },
    ],
  };
}
