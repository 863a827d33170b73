// What the 54-ФЗ receipts of a stay say (issue 17, point 3; «Чеки от ЮKassa»): one item, the stay,
// a service; the prepayment's receipt at the calculated VAT rate with its payment_mode; the refund's
// the same item; the settlement at check-in offsets the prepayment in full payment.
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
const customerOf = (b: Pick<Booking, 'email' | 'phone'>) => (b.email ? { email: b.email } : { phone: receiptPhone(b.phone) });

/** «Проживание: «Домик у моря», 20–23 декабря 2026» (ЮKassa keeps 128 characters). */
const stayItem = (b: Pick<Booking, 'checkIn' | 'checkOut'>, cabinName: string) => `Проживание: «${cabinName}», ${formatStayDates(b.checkIn, b.checkOut)}`.slice(0, 128);

type Stay = Pick<Booking, 'email' | 'phone' | 'checkIn' | 'checkOut' | 'total'>;

/** The receipt of the prepayment (and of its refund): partial, or full when the whole stay is paid. */
export function prepaymentReceipt(b: Stay, cabinName: string, kopecks: number, vatCode: VatCode): Receipt {
  const item: ReceiptItem = {
    description: stayItem(b, cabinName),
    quantity: '1.00',
    amount: rub(kopecks),
    vat_code: VAT_CODES[vatCode].prepaymentCode,
    payment_mode: kopecks >= b.total * 100 ? 'full_prepayment' : 'partial_prepayment',
    payment_subject: 'service',
  };
  return { customer: customerOf(b), items: [item] };
}

/** The settlement receipt at check-in: the service is provided, the prepayment counts toward it. */
export function settlementReceipt(b: Stay, cabinName: string, kopecks: number, vatCode: VatCode): Receipt {
  return {
    customer: customerOf(b),
    items: [{ description: stayItem(b, cabinName), quantity: '1.00', amount: rub(kopecks), vat_code: vatCode, payment_mode: 'full_payment', payment_subject: 'service' }],
  };
}
