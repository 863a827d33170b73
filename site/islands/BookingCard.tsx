// The cabin page's booking card (docs/features.md «Calendar, seasons and booking requests»):
// price per night («от N ₽» when a season is cheaper), the stay picked on a calendar of free
// dates read live from /api/cabins/{id}/availability, guests up to the cabin's maximum, the
// nights priced season by season, and the WhatsApp button with a message naming the cabin and
// price (and, once picked, the dates, nights, guests and total). The note and house rules
// follow. On phones a bar with the price and the button stays at the bottom of the screen.
// Once the dates are picked: the cabin's extras to tick and a promo code. The price is
// the server's own function on the availability's rules (stay-picker.ts), so every line and the
// total are what POST /api/bookings stores; with a code, GET /api/quote's answer is the price,
// asked again whenever the dates, the guests or the extras change.
// The card hydrates when it comes near the screen (client:visible); until then its links work
// as they are, and a tap on the dates is held by the page's script and replayed once the card is
// ready (useIslandReady). The calendar's code comes when the card has nothing else to do (or at
// the first tap), the free dates when the visitor opens the dates; the request form, the extras
// and the code once a day is picked.
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';
import { countOf, formatGuests, formatNights, formatPrice, MONTHS_GENITIVE } from '../../schema/format.ts';
import { CHILD_MAX_AGE, takesGuests, type PetsRule } from '../../schema/pricing.ts';
import {
  NO_STAY,
  pickDay,
  stayRules,
  type Availability,
  type StayRules,
  type StaySelection,
} from '../lib/stay-picker.ts';
import { bookingMessage, bookingStay, whatsappLink } from '../lib/whatsapp.ts';
import { channelLink, offeredChannels, type ChannelSettings } from '../lib/channels.ts';
import { iconCheck, iconClock, iconWhatsapp, iconX } from '../components/icons.ts';
import { isIsoDate, nightsBetween, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { formatKopecks, prepaymentKopecks } from '../../schema/payment-options.ts';
import type { BookingAnswer, BookingDraft, PromoCheck } from './BookingRequest.tsx';
import type { PromoState } from './StayOptions.tsx';
import { askQuote, quoteUrl, type QuoteAsk, type ServerQuote } from '../lib/stay-quote.ts';
import { PriceLines } from './PriceLines.tsx';
import cardCss from './BookingCard.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { useIslandReady } from './useIslandReady.ts';
import { track } from '../lib/visit.ts';
import { PAYMENT_RETURN_KEY } from '../../schema/metrika.ts';

adoptStyles(cardCss);

const EMPTY_DRAFT: Omit<BookingDraft, 'channel'> = {
  name: '',
  phone: '',
  email: '',
  comment: '',
  consent: false,
  website: '',
};
const NO_PROMO: PromoState = { text: '', applied: null, note: null, checking: false };
const PROMO_UNCHECKED = 'Не удалось проверить промокод. Проверьте интернет и нажмите «Применить» ещё раз.';

const loadCalendar = () => import('./StayCalendar.tsx');
const StayCalendar = lazy(loadCalendar);
const loadRequest = () => import('./BookingRequest.tsx');
/** Runs `task` once the next frame is painted: the frame first, then the work. */
const afterPaint = (task: () => void) => requestAnimationFrame(() => setTimeout(task, 0));
const BookingRequest = lazy(loadRequest);
// The extras and the code come in the request form's chunk.
const StayOptions = lazy(() => loadRequest().then((m) => ({ default: m.StayOptions })));
// Only for a guest back from ЮKassa's payment page.
const PaymentReturn = lazy(() => import('./PaymentReturn.tsx'));

interface Props {
  /** `pets`: whether pets may come and what they pay (the checkbox shows only then). */
  cabin: { id: number; name: string; pricePerNight: number; maxGuests: number; pets?: PetsRule };
  /** The lowest price a night has in a season ahead, when lower than the price per night. */
  priceFrom?: number | null;
  phone: string;
  /** The messengers and channels the owner offers (settings, «Контакты»). */
  channels: Omit<ChannelSettings, 'phone'>;
  checkIn: string;
  checkOut: string;
}

type Free = { status: 'idle' | 'loading' | 'error' } | { status: 'ready'; rules: StayRules };

/** `?checkIn=…&checkOut=…&guests=…&childrenAges=…&pets=1` of a search result's link, when it names a stay. */
function stayFromAddress(
  search: string,
): { checkIn: IsoDate; checkOut: IsoDate; guests: number; childrenAges: number[]; pets: boolean } | null {
  const q = new URLSearchParams(search);
  const checkIn = q.get('checkIn') ?? '';
  const checkOut = q.get('checkOut') ?? '';
  if (!isIsoDate(checkIn) || !isIsoDate(checkOut) || checkOut <= checkIn) return null;
  const guests = Number(q.get('guests'));
  const ages = (q.get('childrenAges') ?? '').split(',').filter(Boolean).map(Number);
  return {
    checkIn,
    checkOut,
    guests: Number.isInteger(guests) && guests >= 1 ? guests : 2,
    childrenAges: ages.every((a) => Number.isInteger(a) && a >= 0 && a <= CHILD_MAX_AGE) ? ages : [],
    pets: q.get('pets') === '1',
  };
}

/** The children's ages as picked: null until an age is chosen; a count change keeps the ages given. */
type Ages = (number | null)[];
const resized = (ages: Ages, n: number): Ages => Array.from({ length: n }, (_, i) => ages[i] ?? null);
/** «до 1 года», «1 год» … «17 лет»: the age select's options. */
const AGE_NAMES = Array.from({ length: CHILD_MAX_AGE + 1 }, (_, age) =>
  age === 0 ? 'до 1 года' : countOf(age, ['год', 'года', 'лет']),
);

/**
 * `?booking=N&token=…` of ЮKassa's return address (worker/payments/prepayment.ts returnUrl). With
 * Metrika on, the token has left the address for the tab's storage (site/islands/metrika-consent.ts).
 */
function paymentFromAddress(search: string): { id: number; token: string } | null {
  const q = new URLSearchParams(search);
  const id = Number(q.get('booking'));
  const token = q.get('token') ?? keptToken(q.get('booking'));
  return Number.isInteger(id) && id > 0 && /^[0-9a-f-]{36}$/.test(token) ? { id, token } : null;
}

/** The token of this booking's return that the consent script kept for the tab, or ''. */
function keptToken(booking: string | null): string {
  try {
    const kept = JSON.parse(sessionStorage.getItem(PAYMENT_RETURN_KEY) ?? 'null') as {
      booking?: unknown;
      token?: unknown;
    };
    return kept && kept.booking === booking && typeof kept.token === 'string' ? kept.token : '';
  } catch {
    return '';
  }
}

/** «5 марта». */
const dayMonth = (day: IsoDate) => `${Number(day.slice(8, 10))} ${MONTHS_GENITIVE[Number(day.slice(5, 7)) - 1]}`;

export default function BookingCard({ cabin, priceFrom = null, phone, channels, checkIn, checkOut }: Props) {
  const reach: ChannelSettings = { ...channels, phone };
  const offered = offeredChannels(reach);
  const id = useId();
  const guestsRef = useRef<HTMLSelectElement>(null);
  const childrenRef = useRef<HTMLSelectElement>(null);
  const petsRef = useRef<HTMLInputElement>(null);
  const [guests, setGuests] = useState(Math.min(2, cabin.maxGuests));
  // The children and pets: their fields too are read at hydration, so a choice made before is kept.
  const [ages, setAges] = useState<Ages>([]);
  const [pets, setPets] = useState(false);
  const petsAllowed = cabin.pets?.allowed === true;
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);
  const [free, setFree] = useState<Free>({ status: 'idle' });
  const [stay, setStay] = useState<StaySelection>(NO_STAY);
  // The request form's fields live here, so new dates or a failed send never lose them.
  const [draft, setDraft] = useState<BookingDraft>(() => ({ ...EMPTY_DRAFT, channel: offered[0]!.id }));
  const [sent, setSent] = useState<BookingAnswer | null>(null);
  // «Сводка»'s funnel: a whole stay chosen on the card, once per pair of dates; sent after the
  // picked day is painted (the effect of a tap runs before that paint).
  useEffect(() => {
    if (stay.checkIn && stay.checkOut) afterPaint(() => track('dates', { cabinId: cabin.id }));
  }, [stay.checkIn, stay.checkOut, cabin.id]);
  // Back from ЮKassa's payment page: the card tells where the booking stands.
  const [returned, setReturned] = useState<{ id: number; token: string } | null>(null);
  // The stay asked for in the address (from /search) that is no longer free.
  const [gone, setGone] = useState(false);
  // The optional extras ticked, the promo code, and the server's price with that code: kept here
  // like the form's fields, so new dates or a failed send lose none of them.
  const [ticked, setTicked] = useState<number[]>([]);
  const [promo, setPromo] = useState<PromoState>(NO_PROMO);
  const [server, setServer] = useState<{ key: string; quote: ServerQuote } | null>(null);
  const promoInput = useRef<HTMLInputElement>(null);
  // A tap on the dates before now was held by the page (cabin-page.ts): replayed from here on.
  useIslandReady('booking');

  useEffect(() => {
    // A choice of guests made before the card woke up is kept; else the one of the search.
    const asked = stayFromAddress(window.location.search);
    const chosen = Number(guestsRef.current?.value);
    const wanted = chosen !== Math.min(2, cabin.maxGuests) ? chosen : (asked?.guests ?? chosen);
    const woke =
      wanted >= 1 && wanted <= cabin.maxGuests
        ? wanted
        : asked && asked.guests > cabin.maxGuests
          ? cabin.maxGuests
          : null;
    if (woke !== null) {
      setGuests(woke);
      // The field is uncontrolled (a choice made before the card woke up must survive hydration):
      // it shows the guests of the search, which the price is for, itself.
      if (guestsRef.current) guestsRef.current.value = String(woke);
    }
    // Children: a count picked before the card woke, else the search's ages.
    const count = Number(childrenRef.current?.value) || 0;
    const searched = asked?.childrenAges ?? [];
    if (count > 0) setAges(resized(searched, count));
    else if (searched.length > 0 && searched.length < cabin.maxGuests) {
      setAges(searched);
      if (childrenRef.current) childrenRef.current.value = String(searched.length);
    }
    if (petsRef.current?.checked || (asked?.pets && petsRef.current)) {
      setPets(true);
      if (petsRef.current) petsRef.current.checked = true;
    }
    setReady(true);
    setReturned(paymentFromAddress(window.location.search));
    if (asked) void loadFree(asked);
    // The card is on screen and the dates are what a visitor does first: the calendar's code
    // comes once the page is idle, not after the tap. So does the calendar's «today», at the next
    // idle moment after that code: Moscow's date is the page's first Intl formatter, which loads
    // the browser's locale data (200 ms of a slow phone), kept out of the card's wake.
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(() => void loadCalendar().then(() => idle(() => todayInMoscow())));
  }, [cabin.maxGuests]);

  /** Reads the free dates; a stay asked for in the address is picked if it is still free. */
  async function loadFree(asked?: { checkIn: IsoDate; checkOut: IsoDate }) {
    setFree({ status: 'loading' });
    try {
      const res = await fetch(`/api/cabins/${cabin.id}/availability`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const loaded = stayRules((await res.json()) as Availability);
      setFree({ status: 'ready', rules: loaded });
      if (!asked) return;
      const picked = pickDay(loaded, pickDay(loaded, NO_STAY, asked.checkIn), asked.checkOut);
      if (picked.checkIn === asked.checkIn && picked.checkOut === asked.checkOut) setStay(picked);
      else {
        setGone(true);
        setOpen(true);
      }
    } catch {
      setFree({ status: 'error' });
      if (asked) setOpen(true);
    }
  }

  function openDates() {
    setOpen(true);
    // With the free dates, not after them (a tap held before the card woke had no pointer or focus here).
    void loadCalendar();
    if (free.status === 'idle' || free.status === 'error') void loadFree();
  }

  const rules = free.status === 'ready' ? free.rules : null;
  // What the card prices, offers and sends is the stay a moment after a tap (useDeferredValue): the
  // tap itself draws only the calendar and the dates, so the picked day shows at once on a slow
  // phone, and the price, the extras and the form come in the next frame. They only appear with a
  // whole stay, and a whole stay is never followed by another without a check-in alone between.
  const shown = useDeferredValue(stay);
  const drawn = shown === stay;
  // The extras on offer for these dates: an early check-in or a late check-out only beside a free night.
  const extras = rules && shown.checkIn && shown.checkOut ? rules.offered(shown.checkIn, shown.checkOut) : [];
  // The optional extras ticked that the cabin still offers (the server adds the mandatory ones).
  const chosen = ticked.filter((t) => extras.some((e) => e.id === t && !e.mandatory));
  // Every child's age given and the cabin takes them all: then the stay is priced.
  const agesGiven = ages.every((a) => a !== null);
  const tooMany = !takesGuests(cabin.maxGuests, guests, ages as number[]);
  const family = { childrenAges: ages as number[], pets: pets && petsAllowed };
  const quote =
    rules && shown.checkIn && shown.checkOut && agesGiven && !tooMany
      ? rules.quote(shown.checkIn, shown.checkOut, guests, chosen, family)
      : null;
  // With a code applied, the server's quote for exactly this stay, these guests and extras is the price.
  const ask: QuoteAsk | null =
    quote && shown.checkIn && shown.checkOut && promo.applied
      ? {
          cabinId: cabin.id,
          checkIn: shown.checkIn,
          checkOut: shown.checkOut,
          guests,
          ...family,
          extras: chosen,
          promo: promo.applied,
        }
      : null;
  const askKey = ask ? quoteUrl(ask) : null;
  const quoted = askKey !== null && server?.key === askKey ? server.quote : null;
  const pricing = askKey !== null && quoted === null;
  const priced = quoted ?? quote;
  const details = {
    arrival: shown.checkIn,
    departure: shown.checkOut,
    guests,
    ...(agesGiven ? family : {}),
    total: priced?.total ?? null,
    lines: priced?.lines ?? null,
  };
  // With prepayment on, what the guest pays now: the server's own rule (it computes it again).
  const prepayment =
    rules?.bookingMode === 'prepayment' && rules.prepayment && quote && priced
      ? prepaymentKopecks(priced, quote.parts[0]?.pricePerNight ?? cabin.pricePerNight, rules.prepayment)
      : null;
  // A code typed but not checked yet (the one refused stays out of the price and is not asked again).
  const typedCode = promo.text.trim();
  const promoUnchecked =
    typedCode !== '' && typedCode !== promo.applied && !(promo.note?.refused && promo.note.text === typedCode);

  // The dates, guests or extras changed with a code applied: the server prices them again.
  useEffect(() => {
    if (!ask || !askKey || server?.key === askKey) return;
    const aborted = new AbortController();
    askQuote(ask, aborted.signal).then(
      (answer) => {
        if (answer.ok) setServer({ key: askKey, quote: answer.quote });
        // Not for these dates, say: why, beside the field; the price without it.
        else
          setPromo((p) => ({
            ...p,
            applied: null,
            note: { text: ask.promo, error: answer.refused ?? PROMO_UNCHECKED, refused: answer.refused !== null },
          }));
      },
      () => {},
    );
    return () => aborted.abort();
  }, [askKey]);

  /** «Применить»: the server prices the stay with the code typed, or says why it does not apply. */
  async function applyPromo(): Promise<PromoCheck> {
    const code = promo.text.trim();
    if (!code) {
      setPromo((p) => ({ ...p, applied: null, note: null }));
      return 'applied';
    }
    if (!stay.checkIn || !stay.checkOut || promo.checking) return 'failed';
    const asked: QuoteAsk = {
      cabinId: cabin.id,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      guests,
      ...family,
      extras: chosen,
      promo: code,
    };
    setPromo((p) => ({ ...p, checking: true }));
    const answer = await askQuote(asked);
    if (answer.ok) {
      setServer({ key: quoteUrl(asked), quote: answer.quote });
      setPromo((p) => ({ ...p, checking: false, applied: code, note: null }));
      return 'applied';
    }
    setPromo((p) => ({
      ...p,
      checking: false,
      applied: null,
      note: { text: code, error: answer.refused ?? PROMO_UNCHECKED, refused: answer.refused !== null },
    }));
    return answer.refused !== null ? 'refused' : 'failed';
  }
  const picked = bookingStay(cabin, details);
  // The same function from one tap to the next, so the calendar (memo) is not drawn again when the
  // price and the form come after it.
  const pick = useCallback(
    (day: IsoDate) => {
      if (!rules) return;
      setSent(null);
      setStay((s) => pickDay(rules, s, day));
      // The extras, the code and the form show once the stay is whole: on their way now, but after
      // the picked day is painted (their code and schemas would otherwise run before that paint).
      afterPaint(() => void loadRequest());
    },
    [rules],
  );
  // After a stored request, every channel carries its number.
  const message = bookingMessage(cabin, details) + (sent ? `\nЗаявка №${sent.id}` : '');
  const href = whatsappLink(phone, message);
  const calendarId = `${id}-calendar`;

  let hint = 'Выберите дату заезда';
  if (stay.checkIn && !stay.checkOut && rules) {
    const min = rules.minNights(stay.checkIn);
    const max = rules.maxNights(stay.checkIn);
    const limits = [min > 1 ? `минимум ${formatNights(min)}` : '', max ? `максимум ${formatNights(max)}` : '']
      .filter(Boolean)
      .join(', ');
    hint = limits ? `Выберите дату выезда: ${limits}` : 'Выберите дату выезда';
  } else if (stay.checkIn && stay.checkOut) {
    hint = `${dayMonth(stay.checkIn)} — ${dayMonth(stay.checkOut)}, ${formatNights(nightsBetween(stay.checkIn, stay.checkOut))}`;
  }

  return (
    <>
      <section
        className="card booking"
        id="booking"
        aria-labelledby={`${id}-title`}
        data-ready={ready ? '' : undefined}
      >
        <h2 className="visually-hidden" id={`${id}-title`}>
          Бронирование
        </h2>
        <p className="booking__price">
          <span className="price">{formatPrice(cabin.pricePerNight)}</span> <span className="muted">за ночь</span>
        </p>
        {priceFrom !== null && <p className="price-from booking__from">от {formatPrice(priceFrom)} в некоторые даты</p>}
        {returned && (
          <Suspense
            fallback={
              <p className="hint booking__loading" role="status">
                Проверяем оплату…
              </p>
            }
          >
            <PaymentReturn id={returned.id} token={returned.token} cabin={{ id: cabin.id, name: cabin.name }} />
          </Suspense>
        )}
        <div className="booking__fields">
          {(['checkIn', 'checkOut'] as const).map((which) => (
            <div className="field" key={which}>
              <span className="label" id={`${id}-${which}-label`}>
                {which === 'checkIn' ? 'Заезд' : 'Выезд'}
              </span>
              <button
                type="button"
                className="input booking__date"
                aria-labelledby={`${id}-${which}-label ${id}-${which}-value`}
                aria-expanded={open}
                aria-controls={calendarId}
                onPointerEnter={() => void loadCalendar()}
                onFocus={() => void loadCalendar()}
                onClick={openDates}
              >
                <span id={`${id}-${which}-value`} className={stay[which] ? undefined : 'muted'}>
                  {stay[which] ? dayMonth(stay[which]) : 'Выбрать'}
                </span>
              </button>
            </div>
          ))}
          <div className="field booking__guests">
            <label className="label" htmlFor={`${id}-guests`}>
              Гости
            </label>
            <select
              className="input"
              id={`${id}-guests`}
              ref={guestsRef}
              defaultValue={guests}
              onChange={(e) => setGuests(Number(e.target.value))}
            >
              {Array.from({ length: cabin.maxGuests }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {formatGuests(n)}
                </option>
              ))}
            </select>
          </div>
          {cabin.maxGuests > 1 && (
            <div className="field booking__children">
              <label className="label" htmlFor={`${id}-children`}>
                Дети
              </label>
              <select
                className="input"
                id={`${id}-children`}
                ref={childrenRef}
                defaultValue={0}
                onChange={(e) => setAges((a) => resized(a, Number(e.target.value)))}
              >
                {Array.from({ length: cabin.maxGuests }, (_, n) => (
                  <option key={n} value={n}>
                    {n === 0 ? 'Без детей' : n}
                  </option>
                ))}
              </select>
            </div>
          )}
          {ages.map((age, i) => (
            <div className="field" key={i}>
              <label className="label" htmlFor={`${id}-age-${i}`}>
                Возраст {ages.length > 1 ? `${i + 1}-го ребёнка` : 'ребёнка'}
              </label>
              <select
                className="input"
                id={`${id}-age-${i}`}
                value={age ?? ''}
                onChange={(e) =>
                  setAges((a) =>
                    a.map((x, j) => (j === i ? (e.target.value === '' ? null : Number(e.target.value)) : x)),
                  )
                }
              >
                <option value="">Выберите</option>
                {AGE_NAMES.map((name, years) => (
                  <option key={years} value={years}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          ))}
          {petsAllowed && (
            <label className="check booking__pets">
              <input type="checkbox" ref={petsRef} onChange={(e) => setPets(e.target.checked)} /> С животными
              {cabin.pets!.fee > 0 && (
                <span className="muted">
                  {' '}
                  (+{formatPrice(cabin.pets!.fee)} {cabin.pets!.per === 'night' ? 'за ночь' : 'за проживание'})
                </span>
              )}
            </label>
          )}
        </div>
        {tooMany && (
          <p className="alert alert--warning" role="alert">
            В этом домике нет места для стольких гостей: всего не больше {formatGuests(cabin.maxGuests)}, дети тоже
            считаются.
          </p>
        )}
        {!tooMany && !agesGiven && (
          <p className="hint" role="status">
            Укажите возраст каждого ребёнка — от него зависит цена.
          </p>
        )}
        {gone && !quote && (
          <p className="alert alert--warning booking__gone" role="alert">
            Даты из поиска уже заняты или не подходят по минимальному сроку. Выберите другие в календаре.
          </p>
        )}
        {open && (
          <div className="booking__calendar" id={calendarId} role="group" aria-label="Календарь свободных дат">
            {free.status === 'error' ? (
              <div className="booking__calendar-error" role="alert">
                <p>
                  Не удалось загрузить свободные даты. Проверьте интернет и попробуйте ещё раз, или просто спросите в
                  чате.
                </p>
                <button type="button" className="btn btn--secondary" onClick={() => void loadFree()}>
                  Повторить
                </button>
              </div>
            ) : rules ? (
              <Suspense fallback={<p className="hint booking__loading">Загружаем календарь…</p>}>
                <StayCalendar rules={rules} selection={stay} onPick={pick} />
                <div className="booking__calendar-foot">
                  <p className="hint" aria-live="polite">
                    {hint}
                  </p>
                  {(stay.checkIn || stay.checkOut) && (
                    <button
                      type="button"
                      className="btn btn--ghost"
                      onClick={() => {
                        setSent(null);
                        setStay(NO_STAY);
                      }}
                    >
                      Сбросить
                    </button>
                  )}
                  {stay.checkIn && stay.checkOut && (
                    <button type="button" className="btn btn--secondary" onClick={() => setOpen(false)}>
                      Готово
                    </button>
                  )}
                </div>
              </Suspense>
            ) : (
              <p className="hint booking__loading" role="status">
                Загружаем свободные даты…
              </p>
            )}
          </div>
        )}
        {drawn && picked && quote && !sent && (
          <Suspense fallback={null}>
            <StayOptions
              id={id}
              extras={extras}
              ticked={chosen}
              onTick={(extra, on) =>
                setTicked((t) => (on ? [...t.filter((x) => x !== extra), extra] : t.filter((x) => x !== extra)))
              }
              promo={promo}
              onPromoText={(text) =>
                setPromo((p) => ({ ...p, text, note: null, applied: text.trim() ? p.applied : null }))
              }
              onApply={() => void applyPromo()}
              promoInput={promoInput}
            />
          </Suspense>
        )}
        {picked && priced
          ? // The server's lines: nights by date and season, the guests beyond the price, the discount,
            // the code, the extras, the cleaning fee, the tourist tax.
            drawn && (
              <PriceLines
                lines={priced.lines}
                total={picked.total}
                className="booking__sum"
                totalClassName="booking__total"
                live
                pending={pricing}
              >
                {prepayment !== null && (
                  <div className="booking__prepay">
                    <dt>Предоплата сейчас</dt>
                    <dd>{formatKopecks(prepayment)}</dd>
                  </div>
                )}
              </PriceLines>
            )
          : agesGiven &&
            !tooMany && (
              <p className="hint booking__hint">
                Выберите даты, и мы посчитаем стоимость. Или просто спросите в чате, какие даты свободны.
              </p>
            )}
        {sent ? (
          <div
            className={`alert ${sent.paymentError ? 'alert--warning' : 'alert--success'} booking__sent`}
            role="status"
          >
            {sent.paymentError ? (
              <p>
                {sent.paymentError}. Номер заявки: №{sent.id}.
              </p>
            ) : (
              <p>
                Заявка №{sent.id} принята. Мы свяжемся с вами в ближайшее время
                {draft.channel === 'phone' ? ' по телефону' : ''}.
              </p>
            )}
            {sent.guestUrl ? (
              <p>
                Всё о заявке — статус, стоимость, условия отмены — на{' '}
                <a href={sent.guestUrl}>странице вашего бронирования</a>. Сохраните ссылку: она только ваша.
              </p>
            ) : null}
            <p>Чтобы не ждать, напишите нам или позвоните: номер заявки уже в сообщении.</p>
            <div className="booking__channels-go">
              {offered
                .filter((c) => c.id !== 'whatsapp')
                .map((c) => (
                  <a
                    key={c.id}
                    className="btn btn--secondary"
                    href={channelLink(c.id, reach, message)}
                    {...(c.id === 'phone' ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
                  >
                    {c.id === 'phone' ? 'Позвонить' : `Написать в ${c.label}`}
                  </a>
                ))}
            </div>
          </div>
        ) : (
          drawn &&
          picked &&
          quote &&
          stay.checkIn &&
          stay.checkOut && (
            <Suspense fallback={<p className="hint booking__loading">Загружаем форму заявки…</p>}>
              <BookingRequest
                id={id}
                cabinId={cabin.id}
                stay={{ checkIn: stay.checkIn, checkOut: stay.checkOut, guests, ...family }}
                channels={offered}
                draft={draft}
                onDraft={setDraft}
                prepayment={prepayment}
                onSent={setSent}
                onTaken={() => {
                  setStay(NO_STAY);
                  setOpen(true);
                  void loadFree();
                }}
                extras={chosen}
                promo={promo.applied ?? ''}
                promoUnchecked={promoUnchecked}
                onCheckPromo={applyPromo}
                onPromoRefused={(reason) => {
                  setPromo((p) => ({
                    ...p,
                    applied: null,
                    note: { text: p.applied ?? p.text.trim(), error: reason, refused: true },
                  }));
                  promoInput.current?.scrollIntoView({ block: 'center' });
                }}
                pricing={pricing}
              />
            </Suspense>
          )
        )}
        <a className="btn btn--whatsapp btn--block booking__cta" href={href} target="_blank" rel="noopener noreferrer">
          <Icon svg={iconWhatsapp} />
          Забронировать через WhatsApp
        </a>
        <p className="hint booking__note">Нажимая кнопку, вы перейдете в WhatsApp для оформления бронирования.</p>
        <h3 className="booking__rules-title">Правила дома</h3>
        <ul className="booking__rules">
          <li>
            <Icon svg={iconClock} />
            Заезд после {checkIn}
          </li>
          <li>
            <Icon svg={iconClock} />
            Выезд до {checkOut}
          </li>
          <li>
            <Icon svg={iconX} />
            Курение запрещено
          </li>
          <li>
            <Icon svg={iconX} />
            Без вечеринок и мероприятий
          </li>
          {petsAllowed ? (
            <li>
              <Icon svg={iconCheck} />
              Можно с питомцами
            </li>
          ) : (
            <li>
              <Icon svg={iconX} />
              Без домашних животных
            </li>
          )}
        </ul>
      </section>
      {/* In a display: contents wrapper, so this always-visible bar does not wake the island. */}
      <div className="contents">
        <div className="book-bar arrives-whole" aria-hidden="true">
          <p className="book-bar__price">
            <span className="price">{formatPrice(picked ? picked.total : cabin.pricePerNight)}</span>
            <span className="muted">{picked ? ` за ${formatNights(picked.nights)}` : ' за ночь'}</span>
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
