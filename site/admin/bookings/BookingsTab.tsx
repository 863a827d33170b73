// «Заявки»: every booking request, newest first, with what the owner needs
// to call the guest back, and the decisions on it; below them the bookings read from Avito. The
// server checks each move: confirming nights that are not free any more is refused with a Russian
// message, shown as it is, and the list is read again so it shows what the server holds.
import { useEffect, useState } from 'react';
import type { BookingStatus, OwnerStatus } from '../../../schema/booking-options.ts';
import {
  BookingRow,
  countNew,
  loadBookings,
  moneyText,
  paymentText,
  refundLabel,
  type Booking,
} from './BookingRow.tsx';
import { formatKopecks } from '../../../schema/payment-options.ts';
import { ChannelStays } from './ChannelStays.tsx';
import { formatMoscowTime, formatStayDates } from '../../../schema/format.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useHashDetail } from '../ui/hash.ts';
import { useNotify } from '../ui/Notice.tsx';
import { Segmented } from '../ui/Segmented.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';

type Filter = 'all' | 'new' | 'confirmed' | 'closed';

const FILTERS: { id: Filter; label: string }[] = [
  { id: 'all', label: 'Все' },
  { id: 'new', label: 'Новые' },
  { id: 'confirmed', label: 'Подтверждённые' },
  { id: 'closed', label: 'Закрытые' },
];

const DONE: Partial<Record<BookingStatus, string>> = {
  confirmed: 'подтверждена: эти ночи теперь заняты',
  declined: 'отклонена',
  cancelled: 'отменена: ночи снова свободны',
};

/** `onCount` hears the number of new requests whenever the list is read or changed (the tab's badge). */
export function BookingsTab({ onCount }: { onCount?: (newCount: number) => void }) {
  const { state, reload, setData } = useLoad(() =>
    loadBookings().then((list) => {
      onCount?.(countNew(list));
      return list;
    }),
  );
  // The settings the replies to guests quote; a request shows its replies once they are read.
  const settings = useLoad(() => call(client().admin.settings.$get()));
  const place = settings.state.status === 'loaded' ? settings.state.data : null;
  // Whether ЮKassa's keys are set: only then can a request get a payment link.
  const shop = useLoad(() => call(client().admin.payments.$get()));
  const payments = shop.state.status === 'loaded' && shop.state.data.configured;
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState<number | null>(null);
  const confirm = useConfirm();
  const notify = useNotify();
  // «#bookings/12», from a tap in «Шахматка»: request №12 is brought into view and marked.
  const detail = useHashDetail();
  const focusId = /^\d+$/.test(detail) ? Number(detail) : null;
  const loaded = state.status === 'loaded';
  // The replies and the payment link make a request's card taller once they are read: the card
  // is brought into view after them, or what grows above it would push it out of view again.
  const settled = loaded && settings.state.status !== 'loading' && shop.state.status !== 'loading';
  useEffect(() => {
    if (!settled || focusId === null) return;
    setFilter('all');
    // After the list shows every request, so the card is there to scroll to.
    requestAnimationFrame(() => {
      const card = document.getElementById(`booking-${focusId}`)?.closest('article');
      card?.scrollIntoView({ block: 'center' });
      card?.focus({ preventScroll: true });
    });
  }, [settled, focusId]);

  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;

  const all = state.data;
  const shown = all.filter((b) => matches(b, filter));

  /** Changes the list held here and tells the badge. */
  const change = (update: (list: Booking[]) => Booking[]) =>
    setData((list) => {
      const next = update(list);
      onCount?.(countNew(next));
      return next;
    });

  /**
   * One move on a request, its buttons busy meanwhile. A refusal is told as the server words it,
   * and the list is read again: the server knows better (another request took the nights,
   * another tab moved this one).
   */
  async function act(b: Booking, failure: string, move: () => Promise<void>) {
    setBusy(b.id);
    try {
      await move();
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      notify.error(describeError(err, failure));
      void reload(true);
    } finally {
      setBusy(null);
    }
  }

  async function decide(b: Booking, to: OwnerStatus) {
    if (to === 'cancelled') {
      const ok = await confirm({
        title: 'Отменить бронирование?',
        text: `Бронирование ${b.name || 'гостя'} (${b.cabinName}, ${formatStayDates(b.checkIn, b.checkOut)}) будет отменено, эти ночи снова станут свободными. Сообщите гостю об отмене сами.`,
        confirmLabel: 'Отменить бронирование',
        cancelLabel: 'Не отменять',
        danger: true,
      });
      if (!ok) return;
    }
    await act(b, `Не удалось изменить заявку №${b.id}`, async () => {
      const updated = await call(
        client().admin.bookings[':id'].$put({ param: { id: String(b.id) }, json: { status: to } }),
      );
      change((list) => list.map((x) => (x.id === b.id ? { ...x, ...updated } : x)));
      const mail =
        updated.confirmationMail === 'sent'
          ? '. Гостю отправлено письмо'
          : updated.confirmationMail === 'failed'
            ? '. Письмо гостю не отправлено'
            : '';
      notify.success(`Заявка №${b.id} ${DONE[to] ?? 'обновлена'}${to === 'confirmed' ? mail : ''}`);
    });
  }

  /**
   * «Отправить ссылку на оплату»: the server reads the other platforms' calendars again, holds the
   * nights and asks ЮKassa for a payment page; the card's reply to the guest then carries its link.
   */
  async function paymentLink(b: Booking) {
    await act(b, `Не удалось создать ссылку на оплату по заявке №${b.id}`, async () => {
      const { payment } = await call(
        client().admin.bookings[':id']['payment-link'].$post({ param: { id: String(b.id) } }),
      );
      // The row as the server now holds it (status, payment), read again without a spinner.
      await reload(true);
      notify.success(
        `Ссылка на оплату по заявке №${b.id} готова: отправьте её гостю, даты держим до ${formatMoscowTime(payment.holdUntil)}`,
      );
    });
  }

  /** «Вернуть предоплату»: the refund goes through ЮKassa with its receipt, and the booking is cancelled. */
  async function refund(b: Booking) {
    const ok = await confirm({
      title: `${refundLabel(b)}?`,
      text: `${moneyText(b) ?? paymentText(b) ?? 'Предоплата'}. ${formatKopecks(b.refundable)} вернутся гостю (${b.name || 'гость'}, ${b.cabinName}, ${formatStayDates(b.checkIn, b.checkOut)}) через ЮKassa${b.status === 'cancelled' ? '' : ', бронирование будет отменено, а эти ночи снова станут свободными'}.`,
      confirmLabel: refundLabel(b),
      cancelLabel: 'Не возвращать',
      danger: true,
    });
    if (!ok) return;
    await act(b, `Не удалось вернуть предоплату по заявке №${b.id}`, async () => {
      await call(client().admin.bookings[':id'].refund.$post({ param: { id: String(b.id) } }));
      notify.success(
        b.status === 'cancelled'
          ? `Деньги по заявке №${b.id} возвращены гостю`
          : `Предоплата по заявке №${b.id} возвращена, бронирование отменено`,
      );
      await reload(true);
    });
  }

  async function remove(b: Booking) {
    const ok = await confirm({
      title: 'Удалить заявку?',
      text: `Заявка №${b.id} будет удалена вместе с персональными данными гостя (имя, телефон, почта, комментарий) без возможности восстановления.${b.status === 'confirmed' ? ' Её ночи снова станут свободными.' : ''}`,
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!ok) return;
    await act(b, `Не удалось удалить заявку №${b.id}`, async () => {
      await call(client().admin.bookings[':id'].$delete({ param: { id: String(b.id) } }));
      change((list) => list.filter((x) => x.id !== b.id));
      notify.success(`Заявка №${b.id} удалена`);
    });
  }

  return (
    <section className="tab bookings">
      {all.length > 0 && (
        <Segmented
          label="Какие заявки показать"
          options={FILTERS.map((f) => ({ ...f, count: all.filter((b) => matches(b, f.id)).length }))}
          value={filter}
          onChange={setFilter}
        />
      )}
      {shown.length === 0 ? (
        <p className="empty">
          {all.length === 0
            ? 'Заявок пока нет. Они появятся здесь, когда гость выберет даты на странице домика.'
            : 'Таких заявок нет.'}
        </p>
      ) : (
        <ul className="booking-list">
          {shown.map((b) => (
            <BookingRow
              key={b.id}
              booking={b}
              focused={focusId === b.id}
              busy={busy === b.id}
              place={place}
              onDecide={(x, to) => void decide(x, to)}
              onRemove={(x) => void remove(x)}
              payments={payments}
              onPaymentLink={(x) => void paymentLink(x)}
              onRefund={(x) => void refund(x)}
            />
          ))}
        </ul>
      )}
      <ChannelStays />
    </section>
  );
}

function matches(b: { status: string }, f: Filter): boolean {
  if (f === 'all') return true;
  // A hold waiting for its payment still wants the owner's eye; a hold that ran out is closed.
  if (f === 'closed') return b.status === 'declined' || b.status === 'cancelled' || b.status === 'expired';
  if (f === 'new') return b.status === 'new' || b.status === 'awaiting_payment';
  return b.status === f;
}
