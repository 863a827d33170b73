// One booking request in «Заявки» as the owner reads it on a phone in the morning: what, when,
// who and how to reach them (a tap calls), and the decisions its status allows.
import {
  BOOKING_CHANNEL_LABELS,
  BOOKING_STATUS_LABELS,
  type BookingChannel,
  type BookingStatus,
  type OwnerStatus,
} from '../../../schema/booking-options.ts';
import {
  formatChildren,
  formatGuests,
  formatMoscowTime,
  formatNights,
  formatPrice,
  MONTHS_GENITIVE,
  SITE_UTC_OFFSET_MINUTES,
  formatStayDates,
} from '../../../schema/format.ts';
import { formatKopecks } from '../../../schema/payment-options.ts';
import { stayHoursText } from '../../../schema/pricing.ts';
import { telHref } from '../../lib/tel.ts';
import { call, client } from '../client.ts';
import type { GuestMessagePlace } from '../../../schema/guest-message.ts';
import type { MessageSettings } from '../../../schema/guest-page.ts';
import { Icon } from '../ui/Icon.tsx';
import { GuestReply } from './GuestReply.tsx';
import { DepositActions } from './DepositActions.tsx';
import { BookingMessages } from './BookingMessages.tsx';
import { useIsOwner } from '../ui/role.tsx';
import { sourceLabel } from '../../../schema/visits.ts';

export const loadBookings = () => call(client().admin.bookings.$get());
export type Booking = Awaited<ReturnType<typeof loadBookings>>[number];
/** How many requests wait for an answer: the count on the «Заявки» tab. */
export const countNew = (list: Booking[]) => list.filter((b) => b.status === 'new').length;

/** A colour of its own for each status: amber waits, green holds the nights, red refused, grey called off. */
const BADGE: Record<BookingStatus, string> = {
  new: 'badge--warning',
  confirmed: 'badge--success',
  declined: 'badge--declined',
  cancelled: 'badge--muted',
  awaiting_payment: 'badge--warning',
  expired: 'badge--muted',
};

/** The moves the owner may make from a status (the server checks them too). */
const ACTIONS: Record<BookingStatus, { to: OwnerStatus; label: string; kind: string; of: string }[]> = {
  new: [
    { to: 'confirmed', label: 'Подтвердить', kind: 'btn--primary', of: 'заявку' },
    { to: 'declined', label: 'Отклонить', kind: 'btn--secondary', of: 'заявку' },
  ],
  confirmed: [{ to: 'cancelled', label: 'Отменить бронирование', kind: 'btn--secondary', of: 'по заявке' }],
  declined: [{ to: 'confirmed', label: 'Подтвердить', kind: 'btn--secondary', of: 'заявку' }],
  cancelled: [{ to: 'confirmed', label: 'Подтвердить', kind: 'btn--secondary', of: 'заявку' }],
  // A hold and its end are the payment's to decide, not the owner's.
  awaiting_payment: [],
  expired: [],
};

/** When a request came in, in Moscow time: «24 ноября, 16:05» (the year only when it is not this one). */
export function receivedAt(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const shift = SITE_UTC_OFFSET_MINUTES * 60_000;
  const d = new Date(ms + shift);
  const year = d.getUTCFullYear() === new Date(now + shift).getUTCFullYear() ? '' : ` ${d.getUTCFullYear()}`;
  return `${d.getUTCDate()} ${MONTHS_GENITIVE[d.getUTCMonth()]}${year}, ${formatMoscowTime(iso)}`;
}

/** Where the booking's prepayment stands, in a few words: «Предоплата 7 500 ₽ оплачена». */
export function paymentText(b: Pick<Booking, 'payment' | 'holdUntil' | 'status'>): string | null {
  const p = b.payment;
  if (!p) return null;
  const amount = `Предоплата ${formatKopecks(p.amount)}`;
  if (p.refundStatus === 'succeeded')
    return `${amount} возвращена гостю${p.refundReason === 'late' ? ' (оплачена после окончания брони)' : ''}`;
  if (p.refundStatus === 'pending') return `${amount}: возврат в обработке`;
  if (p.status === 'succeeded') return `${amount} оплачена`;
  if (p.status === 'canceled') return `${amount} не оплачена`;
  const until = b.status === 'awaiting_payment' && b.holdUntil ? formatMoscowTime(b.holdUntil) : '';
  return `${amount}: ждём оплату${until ? `, даты держим до ${until}` : ''}`;
}

/** Money paid and not yet returned (the prepayment, the rest, or the part a guest's late cancellation kept): «Вернуть» applies. */
export const refundable = (b: Pick<Booking, 'refundable'>) => b.refundable > 0;

/** «Вернуть предоплату» while the booking stands; after a guest's late cancellation, what the policy kept: «Вернуть 6 000 ₽». */
export const refundLabel = (b: Pick<Booking, 'refundable' | 'status'>) =>
  b.status === 'cancelled' ? `Вернуть ${formatKopecks(b.refundable)}` : 'Вернуть предоплату';

/**
 * Whether «Удалить» applies: only to a booking nobody started paying for (a spam request). Records
 * of money are kept for the tax office, so one with any payment is cancelled instead; the server
 * refuses its delete too, with a message «Заявки» shows.
 */
export const deletable = (b: Pick<Booking, 'payment' | 'deposit'>) => b.payment === null && b.deposit === null;

/** Over every payment of the booking: «Оплачено 20 000 ₽, возвращено 14 000 ₽». Null when nothing was paid. */
export function moneyText(b: Pick<Booking, 'paid' | 'refunded'>): string | null {
  if (b.paid <= 0 && b.refunded <= 0) return null;
  return [
    b.paid > 0 ? `Оплачено ${formatKopecks(b.paid)}` : '',
    b.refunded > 0 ? `возвращено ${formatKopecks(b.refunded)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

type RowProps = {
  booking: Booking;
  /** The request a tap in «Шахматка» opened: marked so the eye finds it. */
  focused?: boolean;
  busy: boolean;
  /** The settings the reply to the guest quotes (check-in time, address); null until read. */
  place: (GuestMessagePlace & { messages?: MessageSettings }) | null;
  onDecide: (b: Booking, to: OwnerStatus) => void;
  onRemove: (b: Booking) => void;
  /** ЮKassa's keys are set: a new request can get a payment link. */
  payments: boolean;
  onPaymentLink: (b: Booking) => void;
  onRefund: (b: Booking) => void;
};

export function BookingRow({
  booking: b,
  focused,
  busy,
  place,
  onDecide,
  onRemove,
  payments,
  onPaymentLink,
  onRefund,
}: RowProps) {
  const status = b.status as BookingStatus;
  const paid = paymentText(b);
  // A prepayment that was paid and is still held: shown green, and «Вернуть предоплату» applies.
  const kept = refundable(b);
  // Money going back to a guest is the owner's to send.
  const owner = useIsOwner();
  const money = moneyText(b);
  return (
    <li className={`booking-item booking-item--${b.status}${focused ? ' booking-item--focused' : ''}`}>
      <article aria-labelledby={`booking-${b.id}`} tabIndex={focused ? -1 : undefined}>
        <header className="booking-item__head">
          <h3 className="booking-item__title" id={`booking-${b.id}`}>
            №{b.id} · {b.cabinName}
          </h3>
          <span className={`badge ${BADGE[status] ?? 'badge--muted'}`}>
            {BOOKING_STATUS_LABELS[status] ?? b.status}
          </span>
        </header>
        <p className="booking-item__stay">
          <Icon name="calendar" /> <b>{formatStayDates(b.checkIn, b.checkOut)}</b>
        </p>
        <p className="booking-item__facts">
          {formatNights(b.nights)} · {formatGuests(b.guests)}
          {b.childrenAges?.length ? `, ${formatChildren(b.childrenAges)}` : ''}
          {b.pets ? ', с животными' : ''} · <b className="booking-item__total">{formatPrice(b.total)}</b>
        </p>
        {(b.earlyCheckIn || b.lateCheckOut) && (
          <p className="booking-item__payment">
            <Icon name="clock" /> {stayHoursText(b)}
          </p>
        )}
        {paid && (
          <p className={`booking-item__payment${kept ? ' booking-item__payment--paid' : ''}`}>
            <Icon name={kept ? 'check' : 'clock'} /> {paid}
          </p>
        )}
        {/* The sums over every payment, where they say more than the last payment's line: a second payment, a refund. */}
        {money && (b.refunded > 0 || (b.payment !== null && b.paid !== b.payment.amount)) && (
          <p className="booking-item__payment">{money}</p>
        )}
        {b.cancelledBy === 'guest' && (
          <p className="booking-item__payment">
            Отменил гость на своей странице{b.cancelledAt ? `, ${receivedAt(b.cancelledAt)}` : ''}
          </p>
        )}
        {b.phone ? (
          <div className="booking-item__who">
            <span className="booking-item__name">{b.name}</span>
            <a className="booking-item__contact" href={telHref(b.phone)}>
              <Icon name="phone" /> {b.phone}
            </a>
            {b.email && (
              <a className="booking-item__contact" href={`mailto:${b.email}`}>
                <Icon name="mail" /> {b.email}
              </a>
            )}
          </div>
        ) : (
          <p className="booking-item__who muted">Персональные данные удалены</p>
        )}
        {b.comment && <p className="booking-item__comment">{b.comment}</p>}
        <p className="booking-item__meta">
          Связь: {BOOKING_CHANNEL_LABELS[b.channel as BookingChannel] ?? b.channel} · получена{' '}
          <time dateTime={b.createdAt}>{receivedAt(b.createdAt)}</time>
          {sourceLabel(b.source) && <> · откуда: {sourceLabel(b.source)}</>}
        </p>
        {place && b.phone && <GuestReply booking={b} place={place} />}
        {b.phone && (
          <p className="booking-item__meta">
            <a className="booking-item__guest-page" href={b.guestUrl} target="_blank" rel="noopener noreferrer">
              Страница гостя
            </a>
            : статус, оплата и отмена — ссылку можно отправить гостю
          </p>
        )}
        {b.deposit && <DepositActions bookingId={b.id} deposit={b.deposit} owner={owner} />}
        {b.email && <BookingMessages bookingId={b.id} />}
        <div className="booking-item__actions">
          {ACTIONS[status]?.map((a) => (
            <button
              key={a.to}
              type="button"
              className={`btn btn--sm ${a.kind}`}
              disabled={busy}
              onClick={() => onDecide(b, a.to)}
            >
              {a.label}
              <span className="visually-hidden">
                {' '}
                {a.of} №{b.id}
              </span>
            </button>
          ))}
          {status === 'new' && payments && (
            <button
              type="button"
              className="btn btn--sm btn--secondary"
              disabled={busy}
              onClick={() => onPaymentLink(b)}
            >
              Отправить ссылку на оплату<span className="visually-hidden"> по заявке №{b.id}</span>
            </button>
          )}
          {kept && owner && (
            <button type="button" className="btn btn--sm btn--secondary" disabled={busy} onClick={() => onRefund(b)}>
              {refundLabel(b)}
              <span className="visually-hidden"> по заявке №{b.id}</span>
            </button>
          )}
          {deletable(b) && (
            <button type="button" className="btn btn--danger btn--sm" disabled={busy} onClick={() => onRemove(b)}>
              <Icon name="trash" /> Удалить<span className="visually-hidden"> заявку №{b.id}</span>
            </button>
          )}
        </div>
      </article>
    </li>
  );
}
