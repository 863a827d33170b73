// The cabin page's booking card (SPEC.md section 2 and issue 3 point 4): price per night,
// optional arrival/departure dates and guests, the WhatsApp button with a message naming the
// cabin and price (and, when filled, the dates, nights and total), the note and house rules.
// On phones a bar with the price and the button stays at the bottom of the screen. The card
// hydrates when it scrolls into view (client:visible); until then its links work as they are.
import { useEffect, useId, useState } from 'react';
import { Icon } from './Icon.tsx';
import { formatGuests, formatNights, formatPrice } from '../lib/format.ts';
import { bookingMessage, bookingStay, nightsBetween, whatsappLink } from '../lib/whatsapp.ts';
import { iconCheck, iconClock, iconWhatsapp, iconX } from '../components/icons.ts';

interface Props {
  cabin: { name: string; pricePerNight: number; maxGuests: number };
  phone: string;
  checkIn: string;
  checkOut: string;
}

/** Today as «YYYY-MM-DD» in the visitor's own time zone. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export default function BookingCard({ cabin, phone, checkIn, checkOut }: Props) {
  const id = useId();
  const [arrival, setArrival] = useState('');
  const [departure, setDeparture] = useState('');
  const [guests, setGuests] = useState(Math.min(2, cabin.maxGuests));
  // Set once the card runs in the browser: today's date as the earliest arrival.
  const [minDate, setMinDate] = useState<string | undefined>(undefined);
  useEffect(() => setMinDate(today()), []);

  const stay = bookingStay(cabin, { arrival, departure, guests });
  const message = bookingMessage(cabin, { arrival, departure, guests });
  const href = whatsappLink(phone, message);
  const badOrder = Boolean(arrival && departure && nightsBetween(arrival, departure) === null);

  const onArrival = (value: string) => {
    setArrival(value);
    // Keep the stay sensible: a departure not after the new arrival moves to the next day.
    if (value && (!departure || nightsBetween(value, departure) === null)) setDeparture(addDays(value, 1));
  };

  return (
    <>
      <section className="card booking" id="booking" aria-labelledby={`${id}-title`} data-ready={minDate ? '' : undefined}>
        <h2 className="visually-hidden" id={`${id}-title`}>Бронирование</h2>
        <p className="booking__price">
          <span className="price">{formatPrice(cabin.pricePerNight)}</span> <span className="muted">за ночь</span>
        </p>
        <div className="booking__fields">
          <div className="field">
            <label className="label" htmlFor={`${id}-in`}>Заезд</label>
            <input className="input" type="date" id={`${id}-in`} value={arrival} min={minDate} onChange={(e) => onArrival(e.target.value)} />
          </div>
          <div className="field">
            <label className="label" htmlFor={`${id}-out`}>Выезд</label>
            <input
              className="input"
              type="date"
              id={`${id}-out`}
              value={departure}
              min={arrival ? addDays(arrival, 1) : minDate}
              aria-invalid={badOrder || undefined}
              aria-describedby={badOrder ? `${id}-err` : undefined}
              onChange={(e) => setDeparture(e.target.value)}
            />
          </div>
          <div className="field booking__guests">
            <label className="label" htmlFor={`${id}-guests`}>Гости</label>
            <select className="input" id={`${id}-guests`} value={guests} onChange={(e) => setGuests(Number(e.target.value))}>
              {Array.from({ length: cabin.maxGuests }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>{formatGuests(n)}</option>
              ))}
            </select>
          </div>
        </div>
        {badOrder && (
          <p className="error-text" id={`${id}-err`} role="alert">Дата выезда должна быть позже даты заезда</p>
        )}
        {stay ? (
          <dl className="booking__sum" aria-live="polite">
            <div>
              <dt>{formatPrice(cabin.pricePerNight)} × {formatNights(stay.nights)}</dt>
              <dd>{formatPrice(stay.total)}</dd>
            </div>
            <div className="booking__total">
              <dt>Итого</dt>
              <dd>{formatPrice(stay.total)}</dd>
            </div>
          </dl>
        ) : (
          <p className="hint booking__hint">Укажите даты, и мы посчитаем стоимость. Или просто спросите в чате, какие даты свободны.</p>
        )}
        <a className="btn btn--whatsapp btn--block booking__cta" href={href} target="_blank" rel="noopener noreferrer">
          <Icon svg={iconWhatsapp} />
          Забронировать через WhatsApp
        </a>
        <p className="hint booking__note">Нажимая кнопку, вы перейдете в WhatsApp для оформления бронирования.</p>
        <h3 className="booking__rules-title">Правила дома</h3>
        <ul className="booking__rules">
          <li><Icon svg={iconClock} />Заезд после {checkIn}</li>
          <li><Icon svg={iconClock} />Выезд до {checkOut}</li>
          <li><Icon svg={iconX} />Курение запрещено</li>
          <li><Icon svg={iconX} />Без вечеринок и мероприятий</li>
          <li><Icon svg={iconCheck} />Можно с питомцами</li>
        </ul>
      </section>
      {/* In a display: contents wrapper, so this always-visible bar does not wake the island. */}
      <div className="contents">
      <div className="book-bar" aria-hidden="true">
        <p className="book-bar__price">
          <span className="price">{formatPrice(stay ? stay.total : cabin.pricePerNight)}</span>
          <span className="muted">{stay ? ` за ${formatNights(stay.nights)}` : ' за ночь'}</span>
        </p>
        <a className="btn btn--whatsapp" href={href} target="_blank" rel="noopener noreferrer" tabIndex={-1}>
          <Icon svg={iconWhatsapp} />
          Забронировать
        </a>
      </div>
      </div>
    </>
  );
}
