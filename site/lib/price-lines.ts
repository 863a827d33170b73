// How a priced stay's lines read (issue 39): on the booking card, in the message the guest sends
// and on the pages that show a booking, a discount or a promo code reads «−2 200 ₽».
import { formatPrice } from '../../schema/format.ts';

/** A line's amount: «2 200 ₽», or with a real minus sign «−2 200 ₽» for a discount or a code. */
export const formatLineAmount = (amount: number): string => (amount < 0 ? `\u2212${formatPrice(-amount)}` : formatPrice(amount));
