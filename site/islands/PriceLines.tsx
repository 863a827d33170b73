// A priced stay as the guest reads it (issue 17, point 4): the nights season by season, the
// cleaning fee, the tourist tax, then the total, from priceStay's lines; the booking card, the
// guest back from the payment page and the owner's example in «Настройки» show the same list.
import type { ReactNode } from 'react';
import { formatPrice } from '../../schema/format.ts';
import type { PriceLine } from '../../schema/payment-options.ts';

export function PriceLines({ lines, total, className, totalClassName, live = false, children }: {
  lines: readonly PriceLine[];
  total: number;
  className: string;
  totalClassName: string;
  /** Read out when it changes (the card's sum as the dates change). */
  live?: boolean;
  /** Rows after the total (the prepayment). */
  children?: ReactNode;
}) {
  return (
    <dl className={className} aria-live={live ? 'polite' : undefined}>
      {lines.map((line, i) => (
        <div key={i}>
          <dt>{line.label}</dt>
          <dd>{formatPrice(line.amount)}</dd>
        </div>
      ))}
      <div className={totalClassName}>
        <dt>Итого</dt>
        <dd>{formatPrice(total)}</dd>
      </div>
      {children}
    </dl>
  );
}
