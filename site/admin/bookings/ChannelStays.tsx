// «Заявки» → «Бронирования с Авито»: the bookings read from Avito's API that are not
// over yet, so the owner sees who comes from there beside the site's own requests. They are
// Avito's to change: here they are only read (and they hold their nights, see «Шахматка»).
import { CHANNEL_LABELS, type ChannelName } from '../../../schema/channels.ts';
import { nightsBetween } from '../../../schema/dates.ts';
import { formatGuests, formatNights, formatPrice, formatStayDates } from '../../../schema/format.ts';
import { call, client } from '../client.ts';
import { Icon } from '../ui/Icon.tsx';
import { useLoad } from '../ui/useLoad.tsx';

const loadStays = () => call(client().admin.channels.stays.$get());
type Stay = Awaited<ReturnType<typeof loadStays>>[number];

/** Avito's status of a booking as the owner says it, with its badge's colour. */
function statusOf(status: string): { text: string; badge: string } {
  if (status === 'pending') return { text: 'не оплачено', badge: 'badge--warning' };
  if (status === 'active') return { text: 'подтверждено', badge: 'badge--success' };
  return { text: status, badge: 'badge--muted' };
}

export function ChannelStays() {
  const { state, reload } = useLoad(loadStays);
  if (state.status === 'loading') return null;
  if (state.status === 'error') {
    return (
      <p className="channel-stays__failed muted">
        Не удалось загрузить бронирования с Авито: {state.error}{' '}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void reload()}>
          Попробовать снова
        </button>
      </p>
    );
  }
  // Hidden while there are none: most owners never connect Avito.
  if (state.data.length === 0) return null;
  return (
    <section className="channel-stays" aria-labelledby="channel-stays-title">
      <h3 className="channel-stays__title" id="channel-stays-title">
        Бронирования с Авито
      </h3>
      <p className="hint">Их меняют и отменяют на Авито; здесь они занимают даты на сайте.</p>
      <ul className="booking-list">
        {state.data.map((s) => (
          <StayRow key={s.id} stay={s} />
        ))}
      </ul>
    </section>
  );
}

function StayRow({ stay: s }: { stay: Stay }) {
  const status = statusOf(s.status);
  const id = `channel-stay-${s.id}`;
  const channel = CHANNEL_LABELS[s.channel as ChannelName] ?? s.channel;
  return (
    <li className={`booking-item channel-stay channel-stay--${s.status}`}>
      <article aria-labelledby={id}>
        <header className="booking-item__head">
          <h4 className="booking-item__title" id={id}>
            {channel} · {s.cabinName}
          </h4>
          <span className={`badge ${status.badge}`}>{status.text}</span>
        </header>
        <p className="booking-item__stay">
          <Icon name="calendar" /> <b>{formatStayDates(s.start, s.end)}</b>
        </p>
        <p className="booking-item__facts">
          {formatNights(nightsBetween(s.start, s.end))}
          {s.guests ? ` · ${formatGuests(s.guests)}` : ''}
          {s.price ? (
            <>
              {' · '}
              <b className="booking-item__total">{formatPrice(s.price)}</b>
            </>
          ) : null}
        </p>
        {s.guestName && <p className="booking-item__name">{s.guestName}</p>}
        <p className="booking-item__meta">
          Бронирование на {channel} №{s.externalId}
        </p>
      </article>
    </li>
  );
}
