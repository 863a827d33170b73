// The booking card after ЮKassa's payment page: the guest comes back to the cabin's page
// with `?booking=N&token=…#booking`, and the card says where things stand, read from
// GET /api/bookings/{id}/status (which reads the payment back from ЮKassa itself, so the answer is
// right even before ЮKassa's notification has reached us). While the payment is still being
// processed the card asks again every few seconds, for a minute. Loaded only on that return.
import { useEffect, useState } from 'react';
import { formatMoscowTime, formatStayDates, formatNights, formatGuests } from '../../schema/format.ts';
import { formatKopecks, type PriceLine } from '../../schema/payment-options.ts';
import type { BookingStatus } from '../../schema/booking-options.ts';
import controlsCss from '../styles/controls.css?inline';
import requestCss from './BookingRequest.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { PriceLines } from './PriceLines.tsx';
import { track } from '../lib/visit.ts';

// The alerts' and buttons' styles come with this part of the card, as with the request form.
adoptStyles(controlsCss);
adoptStyles(requestCss);

type Status = {
  id: number;
  status: BookingStatus;
  checkIn: string;
  checkOut: string;
  nights: number;
  guests: number;
  total: number;
  lines: PriceLine[] | null;
  holdUntil: string | null;
  payment: { amount: number; status: string; confirmationUrl: string; refunded: boolean } | null;
};

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; booking: Status };

const POLL_MS = 3000;
const POLL_TIMES = 20;
const READ_FAILED =
  'Не удалось узнать, как прошла оплата. Проверьте интернет и нажмите «Проверить ещё раз». Если деньги списались, бронирование не потеряется.';

/** Still waiting for ЮKassa's word: the payment may be paid a moment later. */
const waiting = (b: Status) => b.status === 'awaiting_payment';

/**
 * A prepayment the card shows received is counted once per booking in this tab (a reload shows
 * it again): «Сводка»'s beacon and, with the visitor's consent, Metrika's goal and purchase.
 */
function countPaid(b: Status, cabin: { id: number; name: string }) {
  const key = `kaspiy.paid.${b.id}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
  } catch {}
  track(
    'pay',
    { cabinId: cabin.id },
    {
      actionField: { id: String(b.id), revenue: b.total },
      products: [{ id: String(cabin.id), name: cabin.name, price: b.total, quantity: 1 }],
    },
  );
}

export default function PaymentReturn({
  id,
  token,
  cabin,
}: {
  id: number;
  token: string;
  cabin: { id: number; name: string };
}) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [polls, setPolls] = useState(0);

  async function read() {
    try {
      const res = await fetch(`/api/bookings/${id}/status?token=${encodeURIComponent(token)}`, { cache: 'no-store' });
      const body = (await res.json().catch(() => null)) as (Status & { error?: string }) | null;
      if (!res.ok || !body) throw new Error(body?.error ?? READ_FAILED);
      setState({ kind: 'ready', booking: body });
    } catch (err) {
      setState({
        kind: 'error',
        message: err instanceof Error && err.message !== 'Failed to fetch' ? err.message : READ_FAILED,
      });
    }
  }

  useEffect(() => {
    void read();
  }, [id, token]);

  const received =
    state.kind === 'ready' && state.booking.status === 'confirmed' && state.booking.payment?.status === 'succeeded';
  useEffect(() => {
    if (received && state.kind === 'ready') countPaid(state.booking, cabin);
  }, [received]);

  // Asks again while the payment is being processed, for about a minute.
  const pending = state.kind === 'ready' && waiting(state.booking);
  useEffect(() => {
    if (!pending || polls >= POLL_TIMES) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      void read();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, polls]);

  if (state.kind === 'loading')
    return (
      <p className="hint booking__status" role="status">
        Проверяем оплату…
      </p>
    );
  if (state.kind === 'error') {
    return (
      <div className="alert booking__status" role="alert">
        <p>{state.message}</p>
        <button type="button" className="btn btn--secondary" onClick={() => void read()}>
          Проверить ещё раз
        </button>
      </div>
    );
  }

  const b = state.booking;
  const stay = `${formatStayDates(b.checkIn, b.checkOut)}, ${formatNights(b.nights)}, ${formatGuests(b.guests)}`;
  const paid = b.payment ? formatKopecks(b.payment.amount) : '';

  if (b.status === 'confirmed') {
    return (
      <div className="alert alert--success booking__status" role="status">
        <h3 className="booking__status-title">Бронирование подтверждено</h3>
        <p>
          Бронирование №{b.id}: {stay}.
        </p>
        {b.lines && b.lines.length > 0 && (
          <PriceLines
            lines={b.lines}
            total={b.total}
            className="booking__sum booking__sum--paid"
            totalClassName="booking__total"
          />
        )}
        {b.payment?.status === 'succeeded' && (
          <p>Предоплата {paid} получена, остаток — при заезде. Чек пришёл на ваш телефон или почту.</p>
        )}
        <p>
          Как добраться, оплата остатка и отмена — на <a href={`/b/${token}`}>странице вашего бронирования</a>: ссылка
          на неё придёт и в письме. Если планы изменятся, напишите нам.
        </p>
      </div>
    );
  }
  if (waiting(b)) {
    const until = b.holdUntil ? formatMoscowTime(b.holdUntil) : '';
    return (
      <div className="alert alert--warning booking__status" role="status">
        <h3 className="booking__status-title">Ждём оплату</h3>
        <p>
          Бронирование №{b.id}: {stay}. {until && `Даты держим за вами до ${until} по Москве.`}
        </p>
        <p>
          {polls < POLL_TIMES
            ? 'Если вы уже оплатили, подождите немного: страница обновится сама.'
            : 'Оплата пока не поступила.'}
        </p>
        <div className="booking__channels-go">
          {b.payment?.confirmationUrl && (
            <a className="btn btn--primary" href={b.payment.confirmationUrl}>
              Оплатить {paid}
            </a>
          )}
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => {
              setPolls(0);
              void read();
            }}
          >
            Проверить ещё раз
          </button>
        </div>
      </div>
    );
  }
  if (b.status === 'expired') {
    return (
      <div className="alert booking__status" role="alert">
        <h3 className="booking__status-title">Бронь истекла</h3>
        <p>
          {b.payment?.refunded
            ? `Оплата пришла после того, как бронь №${b.id} истекла, поэтому мы вернули ${paid} на вашу карту.`
            : `Бронирование №${b.id} не оплачено, и даты снова свободны.`}{' '}
          Выберите даты ещё раз или напишите нам.
        </p>
      </div>
    );
  }
  if (b.status === 'new') {
    return (
      <div className="alert alert--success booking__status" role="status">
        <p>
          Заявка №{b.id} принята: {stay}. Мы свяжемся с вами и подтвердим бронирование.
        </p>
      </div>
    );
  }
  return (
    <div className="alert booking__status" role="status">
      <h3 className="booking__status-title">Бронирование №{b.id} отменено</h3>
      <p>{b.payment?.refunded ? `Предоплата ${paid} возвращена на вашу карту.` : 'Если это ошибка, напишите нам.'}</p>
    </div>
  );
}
