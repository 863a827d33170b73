// «Заявки» (issue 11, point 3): every booking request, newest first, with what the owner needs
// to call the guest back, and the decisions on it. The server checks each move: confirming
// nights that are not free any more is refused with a Russian message, shown as it is.
import { useState } from 'react';
import { BOOKING_CHANNEL_LABELS, BOOKING_STATUS_LABELS, type BookingChannel, type BookingStatus } from '../../schema/booking-options.ts';
import { formatNights, formatPrice, MONTHS_GENITIVE } from '../lib/format.ts';
import { telHref } from '../lib/site.ts';
import { call, client, describeError, SessionEndedError } from './client.ts';
import { useConfirm } from './Confirm.tsx';
import { Icon } from './Icon.tsx';
import { useNotify } from './Notice.tsx';
import { LoadError, Loading, useLoad } from './useLoad.tsx';

type Booking = Awaited<ReturnType<typeof loadBookings>>[number];
type Filter = 'all' | 'new' | 'confirmed' | 'closed';

const loadBookings = () => call(client().admin.bookings.$get());

const BADGE: Record<BookingStatus, string> = { new: 'badge--warning', confirmed: 'badge--success', declined: 'badge--muted', cancelled: 'badge--muted' };

/** «5–8 марта 2027» or «30 марта — 2 апреля 2027» (nights [checkIn, checkOut)). */
export function stayDates(checkIn: string, checkOut: string): string {
  const [y1, m1, d1] = checkIn.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = checkOut.split('-').map(Number) as [number, number, number];
  if (y1 === y2 && m1 === m2) return `${d1}–${d2} ${MONTHS_GENITIVE[m1 - 1]} ${y1}`;
  if (y1 === y2) return `${d1} ${MONTHS_GENITIVE[m1 - 1]} — ${d2} ${MONTHS_GENITIVE[m2 - 1]} ${y1}`;
  return `${d1} ${MONTHS_GENITIVE[m1 - 1]} ${y1} — ${d2} ${MONTHS_GENITIVE[m2 - 1]} ${y2}`;
}

const received = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' });

/** The moves the owner may make from a status (the server checks them too). */
const ACTIONS: Record<BookingStatus, { to: BookingStatus; label: string; kind: string }[]> = {
  new: [
    { to: 'confirmed', label: 'Подтвердить', kind: 'btn--primary' },
    { to: 'declined', label: 'Отклонить', kind: 'btn--secondary' },
  ],
  confirmed: [{ to: 'cancelled', label: 'Отменить бронирование', kind: 'btn--secondary' }],
  declined: [{ to: 'confirmed', label: 'Подтвердить', kind: 'btn--secondary' }],
  cancelled: [{ to: 'confirmed', label: 'Подтвердить снова', kind: 'btn--secondary' }],
};

const DONE: Partial<Record<BookingStatus, string>> = {
  confirmed: 'подтверждена: эти ночи теперь заняты',
  declined: 'отклонена',
  cancelled: 'отменена: ночи снова свободны',
};

export function BookingsTab({ onCount }: { onCount?: (newCount: number) => void }) {
  const { state, reload, setData } = useLoad(() =>
    loadBookings().then((list) => {
      onCount?.(list.filter((b) => b.status === 'new').length);
      return list;
    }),
  );
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState<number | null>(null);
  const confirm = useConfirm();
  const notify = useNotify();

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void reload()} />;

  const all = state.data;
  const count = (f: Filter) => all.filter((b) => matches(b, f)).length;
  const shown = all.filter((b) => matches(b, filter));

  const replace = (list: Booking[]) => {
    onCount?.(list.filter((b) => b.status === 'new').length);
    return list;
  };

  async function decide(b: Booking, to: BookingStatus) {
    if (to === 'cancelled') {
      const ok = await confirm({
        title: 'Отменить бронирование?',
        text: `Бронирование ${b.name || 'гостя'} на ${stayDates(b.checkIn, b.checkOut)} будет отменено, ночи снова станут свободными.`,
        confirmLabel: 'Отменить бронирование',
        danger: true,
      });
      if (!ok) return;
    }
    setBusy(b.id);
    try {
      const updated = await call(client().admin.bookings[':id'].$put({ param: { id: String(b.id) }, json: { status: to } }));
      setData((list) => replace(list.map((x) => (x.id === b.id ? { ...x, ...updated } : x))));
      notify.success(`Заявка №${b.id} ${DONE[to] ?? 'обновлена'}`);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      notify.error(describeError(err, `Не удалось изменить заявку №${b.id}`));
      void reload();
    } finally {
      setBusy(null);
    }
  }

  async function remove(b: Booking) {
    const ok = await confirm({
      title: 'Удалить заявку?',
      text: `Заявка №${b.id} и персональные данные гостя (имя, телефон, почта, комментарий) будут удалены без возможности восстановления.`,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!ok) return;
    setBusy(b.id);
    try {
      await call(client().admin.bookings[':id'].$delete({ param: { id: String(b.id) } }));
      setData((list) => replace(list.filter((x) => x.id !== b.id)));
      notify.success(`Заявка №${b.id} удалена`);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      notify.error(describeError(err, `Не удалось удалить заявку №${b.id}`));
    } finally {
      setBusy(null);
    }
  }

  const filters: { id: Filter; label: string }[] = [
    { id: 'all', label: 'Все' },
    { id: 'new', label: 'Новые' },
    { id: 'confirmed', label: 'Подтверждённые' },
    { id: 'closed', label: 'Закрытые' },
  ];

  return (
    <section className="tab">
      <div className="segmented" role="group" aria-label="Какие заявки показать">
        {filters.map((f) => (
          <button key={f.id} type="button" className="segmented__btn" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)}>
            {f.label} <span className="segmented__count">{count(f.id)}</span>
          </button>
        ))}
      </div>
      {shown.length === 0 ? (
        <p className="empty">{all.length === 0 ? 'Заявок пока нет. Они появятся здесь, когда гость выберет даты на странице домика.' : 'Таких заявок нет.'}</p>
      ) : (
        <ul className="booking-list">
          {shown.map((b) => (
            <li key={b.id} className={`booking-item booking-item--${b.status}`}>
              <article aria-labelledby={`booking-${b.id}`}>
                <header className="booking-item__head">
                  <h3 className="booking-item__title" id={`booking-${b.id}`}>
                    №{b.id} · {b.cabinName}
                  </h3>
                  <span className={`badge ${BADGE[b.status as BookingStatus] ?? 'badge--muted'}`}>{BOOKING_STATUS_LABELS[b.status as BookingStatus] ?? b.status}</span>
                </header>
                <p className="booking-item__stay">
                  <Icon name="calendar" /> {stayDates(b.checkIn, b.checkOut)}, {formatNights(b.nights)}, гостей: {b.guests} · <b>{formatPrice(b.total)}</b>
                </p>
                {b.phone ? (
                  <p className="booking-item__who">
                    <span className="booking-item__name">{b.name}</span>{' '}
                    <a className="booking-item__phone" href={telHref(b.phone)}>
                      <Icon name="phone" /> {b.phone}
                    </a>
                    {b.email && (
                      <>
                        {' '}
                        <a href={`mailto:${b.email}`}>{b.email}</a>
                      </>
                    )}
                  </p>
                ) : (
                  <p className="booking-item__who muted">Персональные данные удалены</p>
                )}
                {b.comment && <p className="booking-item__comment">{b.comment}</p>}
                <p className="booking-item__meta">
                  Связь: {BOOKING_CHANNEL_LABELS[b.channel as BookingChannel] ?? b.channel} · получена <time dateTime={b.createdAt}>{received.format(new Date(b.createdAt))}</time>
                </p>
                <div className="booking-item__actions">
                  {ACTIONS[b.status as BookingStatus]?.map((a) => (
                    <button key={a.to} type="button" className={`btn btn--sm ${a.kind}`} disabled={busy === b.id} onClick={() => void decide(b, a.to)}>
                      {a.label}
                      <span className="visually-hidden"> заявку №{b.id}</span>
                    </button>
                  ))}
                  <button type="button" className="btn btn--danger btn--sm" disabled={busy === b.id} onClick={() => void remove(b)}>
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> заявку №{b.id}</span>
                  </button>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function matches(b: { status: string }, f: Filter): boolean {
  if (f === 'all') return true;
  if (f === 'closed') return b.status === 'declined' || b.status === 'cancelled';
  return b.status === f;
}
