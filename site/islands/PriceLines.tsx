// A priced stay as the guest reads it (issues 17 and 39): the nights at their prices, the guests
// beyond the price, a discount and a promo code (as «−2 200 ₽»), the extras, the cleaning fee,
// the tourist tax, then the total, from the pricing function's lines; the booking card, the guest
// back from the payment page and the owner's example in «Настройки» show the same list.
import type { ReactNode } from 'react';
import { formatPrice, formatLineAmount } from '../../schema/format.ts';
import type { PriceLine } from '../../schema/payment-options.ts';

export function PriceLines({
  lines,
  total,
  className,
  totalClassName,
  live = false,
  pending = false,
  children,
}: {
  lines: readonly PriceLine[];
  total: number;
  className: string;
  totalClassName: string;
  /** Read out when it changes (the card's sum as the dates change). */
  live?: boolean;
  /** The total is being asked of the server (a promo code with new dates): it is not shown meanwhile. */
  pending?: boolean;
  /** Rows after the total (the prepayment). */
  children?: ReactNode;
}) {
  return (
    <dl className={className} aria-live={live ? 'polite' : undefined} aria-busy={pending || undefined}>
      {lines.map((line, i) => (
        <div key={i}>
          <dt>{line.label}</dt>
          <dd>{formatLineAmount(line.amount)}</dd>
        </div>
      ))}
      <div className={totalClassName}>
        <dt>Итого</dt>
        <dd>{pending ? 'считаем…' : formatPrice(total)}</dd>
      </div>
      {children}
    </dl>
  );
}
