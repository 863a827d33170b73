// The buttons of the guest's own page, /b/{token}: «Оплатить остаток», the cancellation after a
// second look (what comes back is said before the guest confirms), after the stay the review
// form whose review is marked «Гость проживал(а)», and «Получать сообщения в Telegram» (and «в MAX»). The server wrote the whole page, these places
// included (worker/pages/guest-html.ts); each is hydrated from the data the page carries, with
// the same markup first, so nothing moves when the script arrives. No read of the booking on
// load; after a cancellation or «Проверить оплату» the page is loaded again, as the server shows it.
import { lazy, Suspense, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { GuestPageAnswer } from '../../schema/guest-page.ts';
import {
  GUEST_PAGE_DATA_ID,
  MAX_BUTTON,
  MAX_CONSENT_TEXT,
  MAX_LINKED_TEXT,
  quotedName,
  TELEGRAM_BUTTON,
  TELEGRAM_CONSENT_TEXT,
  TELEGRAM_LINKED_TEXT,
} from '../../schema/guest-page-texts.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import { DEPOSIT_PAY_BUTTON } from '../../schema/deposit-words.ts';
import { serverErrorText } from '../lib/server-error.ts';
import { CHANGE_BUTTON, changePendingText } from '../../schema/date-change-words.ts';
import formCss from '../styles/review-form.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { FormError } from './FormError.tsx';
import { READY } from './wake.ts';

const ReviewFormFields = lazy(() => import('./ReviewFormFields.tsx'));

const ACTION_FAILED = 'Не получилось: проверьте интернет и попробуйте ещё раз.';

async function post<T>(path: string): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok || !body) throw new Error(serverErrorText(res.status, body?.error, ACTION_FAILED));
  return body;
}

/** The page as the server has it now: the address is the same, the answer fresh (never cached). */
const reload = () => window.location.reload();

/** Hydrates each place with buttons the server wrote (`data-guest-island`), from the page's data block. */
export function mountGuestPage(): void {
  const data = document.getElementById(GUEST_PAGE_DATA_ID)?.textContent;
  if (!data) return;
  const page = JSON.parse(data) as GuestPageAnswer;
  const token = window.location.pathname.split('/').filter(Boolean)[1] ?? '';
  const api = `/api/guest/${encodeURIComponent(token)}`;
  const parts: Record<string, ReactNode> = {
    pay: <PayRest page={page} api={api} />,
    deposit: <DepositPay page={page} api={api} />,
    cancel: <CancelActions page={page} api={api} />,
    review: <Review token={token} />,
    telegram: <TelegramLink page={page} api={api} />,
    max: <MaxLink page={page} api={api} />,
    change: <ChangeDates page={page} api={api} />,
  };
  for (const el of document.querySelectorAll<HTMLElement>('[data-guest-island]')) {
    const part = parts[el.dataset.guestIsland ?? ''];
    if (part) hydrateRoot(el, part);
  }
  // Each root listens from here on; a tap while it is still hydrating is replayed by React, and
  // one held before this (islands/guest-loader.ts) is replayed now.
  document.documentElement.setAttribute('data-guest-ready', '');
  document.dispatchEvent(new CustomEvent(READY, { detail: 'guest' }));
}

/** «Оплатить остаток»: a second payment at ЮKassa for what is due; back from it, the server shows the page anew. */
export function PayRest({ page, api }: { page: GuestPageAnswer; api: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (page.pendingPayment?.confirmationUrl) {
    return (
      <div className="guest__actions">
        <p className="hint">{`Платёж на ${formatKopecks(page.pendingPayment.amount)} начат, но ещё не завершён.`}</p>
        <a className="btn btn--primary" href={page.pendingPayment.confirmationUrl}>
          Вернуться к оплате
        </a>
        <button type="button" className="btn btn--secondary" onClick={reload}>
          Проверить оплату
        </button>
      </div>
    );
  }
  if (!page.canPay) return null;
  const pay = async () => {
    setBusy(true);
    setError('');
    try {
      const { confirmationUrl } = await post<{ confirmationUrl: string }>(`${api}/pay`);
      window.location.assign(confirmationUrl);
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
      setBusy(false);
    }
  };
  return (
    <div className="guest__actions">
      <button type="button" className="btn btn--primary btn--lg" disabled={busy} onClick={() => void pay()}>
        {busy ? 'Переходим к оплате…' : `Оплатить остаток ${formatKopecks(page.due)}`}
      </button>
      <FormError message={error} />
    </div>
  );
}

/**
 * «Внести залог» (a hold on the card) or «Оплатить залог» (paid, refunded after departure) at
 * ЮKassa; back from it, the server shows the page anew.
 */
export function DepositPay({ page, api }: { page: GuestPageAnswer; api: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const d = page.deposit;
  if (d?.confirmationUrl)
    return (
      <div className="guest__actions">
        <a className="btn btn--primary" href={d.confirmationUrl}>
          Вернуться к оплате залога
        </a>
        <button type="button" className="btn btn--secondary" onClick={reload}>
          Проверить оплату
        </button>
      </div>
    );
  if (!d?.canPay) return null;
  const pay = async () => {
    setBusy(true);
    setError('');
    try {
      const { confirmationUrl } = await post<{ confirmationUrl: string }>(`${api}/deposit`);
      window.location.assign(confirmationUrl);
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
      setBusy(false);
    }
  };
  return (
    <div className="guest__actions">
      <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void pay()}>
        {busy ? 'Переходим к оплате…' : DEPOSIT_PAY_BUTTON(d.amount, d.mode)}
      </button>
      <FormError message={error} />
    </div>
  );
}

/** Below the policy in words: why the stay cannot be cancelled, or «Отменить бронирование» after a second look. */
export function CancelActions({ page, api }: { page: GuestPageAnswer; api: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { cancel } = page;
  if (!cancel.allowed) return cancel.reason ? <p className="hint">{cancel.reason}</p> : null;
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      await post(`${api}/cancel`);
      // The whole page changes (the status, the money, what goes back): the server writes it.
      reload();
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
      setBusy(false);
    }
  };
  return (
    <>
      {asking ? (
        <div className="guest__confirm" role="group" aria-labelledby="guest-cancel-q">
          <p id="guest-cancel-q">
            <strong>Отменить бронирование?</strong>{' '}
            {cancel.refund > 0
              ? `Вернём ${formatKopecks(cancel.refund)}${cancel.kept > 0 ? `, удержим ${formatKopecks(cancel.kept)} по условиям отмены` : ''}.`
              : cancel.kept > 0
                ? `Оплаченные ${formatKopecks(cancel.kept)} удерживаются по условиям отмены.`
                : 'Вы ничего не платили: просто освободим даты.'}
          </p>
          <div className="guest__actions">
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void confirm()}>
              {busy ? 'Отменяем…' : 'Да, отменить'}
            </button>
            <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setAsking(false)}>
              Нет, оставить
            </button>
          </div>
        </div>
      ) : (
        <p>
          <button type="button" className="btn btn--secondary" onClick={() => setAsking(true)}>
            Отменить бронирование
          </button>
        </p>
      )}
      <FormError message={error} />
    </>
  );
}

type ChangeQuote = {
  quote: { total: number };
  cabin: { id: number; name: string };
  difference: number;
  due: number;
  refund: number;
};
type Asked = { checkIn: string; checkOut: string; cabinId: number };

/**
 * «Перенести даты»: the new dates in the phone's own date fields (and, where the owner allows, the
 * cabin), their price asked of the server, then the move (or ЮKassa's page for the difference).
 * The fields are a plain form: a stay chosen and sent before the script came arrives in the
 * page's address, and is asked about as soon as it has. When the booking's own cabin is taken
 * on those dates, the other cabins offered that search finds free are named, each a tap away.
 */
export function ChangeDates({ page, api }: { page: GuestPageAnswer; api: string }) {
  const [quote, setQuote] = useState<(ChangeQuote & Asked) | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [cabinId, setCabinId] = useState(page.cabin.id);
  const [free, setFree] = useState<{ id: number; name: string }[]>([]);
  const change = page.change;
  const offered = change?.cabins;
  const ask = async (asked: Asked) => {
    setBusy(true);
    setError('');
    setQuote(null);
    setFree([]);
    const { checkIn, checkOut } = asked;
    const query = new URLSearchParams({ checkIn, checkOut });
    if (offered) query.set('cabinId', String(asked.cabinId));
    try {
      const res = await fetch(`${api}/change?${query}`);
      const body = (await res.json().catch(() => null)) as (ChangeQuote & { error?: string }) | null;
      if (res.status === 409 && offered && asked.cabinId === page.cabin.id)
        setFree(await freeCabins(page, offered, checkIn, checkOut));
      if (!res.ok || !body) throw new Error(serverErrorText(res.status, body?.error, ACTION_FAILED));
      setQuote({ ...body, ...asked });
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
    }
    setBusy(false);
  };
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    const checkIn = q.get('checkIn') ?? '';
    const checkOut = q.get('checkOut') ?? '';
    if (!checkIn || !checkOut || !page.change?.allowed) return;
    const sent = Number(q.get('cabinId'));
    const cabin = page.change.cabins?.some((c) => c.id === sent) ? sent : page.cabin.id;
    for (const [name, value] of [
      ['checkIn', checkIn],
      ['checkOut', checkOut],
    ] as const) {
      const input = document.querySelector<HTMLInputElement>(`.guest__change input[name="${name}"]`);
      if (input) input.value = value;
    }
    setCabinId(cabin);
    void ask({ checkIn, checkOut, cabinId: cabin });
    // Once, for the stay sent before the script came.
  }, []);
  if (!change) return null;
  if (change.pending)
    return (
      <div className="guest__actions">
        <p className="hint">{changePendingText(change.pending)}</p>
        <a className="btn btn--primary" href={change.pending.confirmationUrl}>
          Доплатить
        </a>
        <button type="button" className="btn btn--secondary" onClick={reload}>
          Проверить оплату
        </button>
      </div>
    );
  if (!change.allowed) return change.reason ? <p className="hint">{change.reason}</p> : null;
  const datesOf = (form: HTMLFormElement) => {
    const data = new FormData(form);
    return { checkIn: String(data.get('checkIn') ?? ''), checkOut: String(data.get('checkOut') ?? '') };
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void ask({ ...datesOf(e.currentTarget), cabinId });
  };
  /** A free cabin named under the refusal: chosen in the field, and priced for the same dates. */
  const pick = (id: number) => {
    setCabinId(id);
    const form = document.querySelector<HTMLFormElement>('form.guest__change');
    if (form) void ask({ ...datesOf(form), cabinId: id });
  };
  const confirm = async () => {
    if (!quote) return;
    setBusy(true);
    setError('');
    try {
      const res = await fetch(`${api}/change`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          checkIn: quote.checkIn,
          checkOut: quote.checkOut,
          ...(offered ? { cabinId: quote.cabinId } : {}),
        }),
      });
      const body = (await res.json().catch(() => null)) as { confirmationUrl?: string; error?: string } | null;
      if (!res.ok || !body) throw new Error(serverErrorText(res.status, body?.error, ACTION_FAILED));
      if (body.confirmationUrl) window.location.assign(body.confirmationUrl);
      else window.location.assign(window.location.pathname);
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
      setBusy(false);
    }
  };
  return (
    <>
      <form className="guest__change" method="get" onSubmit={submit}>
        <label className="guest__field">
          Новый заезд
          <input className="input" type="date" name="checkIn" required />
        </label>
        <label className="guest__field">
          Новый выезд
          <input className="input" type="date" name="checkOut" required />
        </label>
        {offered ? (
          <label className="guest__field guest__field--wide">
            Домик
            <select
              className="input"
              name="cabinId"
              value={cabinId}
              onChange={(e) => {
                setCabinId(Number(e.currentTarget.value));
                setQuote(null);
                setFree([]);
              }}
            >
              {offered.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="guest__actions">
          <button type="submit" className="btn btn--secondary" disabled={busy}>
            Узнать стоимость
          </button>
        </div>
      </form>
      {quote ? (
        <div className="guest__confirm" role="status">
          <p>{changeQuoteText(quote, page.cabin.id)}</p>
          <div className="guest__actions">
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void confirm()}>
              {CHANGE_BUTTON(quote.due)}
            </button>
          </div>
        </div>
      ) : null}
      <FormError message={error} />
      {free.length > 0 ? (
        <div className="guest__free">
          <p className="hint">Свободно в эти даты:</p>
          <ul>
            {free.map((c) => (
              <li key={c.id}>
                <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => pick(c.id)}>
                  {c.name}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/**
 * The cabins offered that the site's own search finds free for the whole of these dates (and
 * long enough, open for them) for the booking's party: none when the search cannot say.
 */
async function freeCabins(
  page: GuestPageAnswer,
  offered: readonly { id: number; name: string }[],
  checkIn: string,
  checkOut: string,
): Promise<{ id: number; name: string }[]> {
  const query = new URLSearchParams({ checkIn, checkOut, guests: String(page.guests) });
  if (page.childrenAges.length) query.set('childrenAges', page.childrenAges.join(','));
  if (page.pets) query.set('pets', '1');
  try {
    const res = await fetch(`/api/search?${query}`);
    if (!res.ok) return [];
    const found = new Set(((await res.json()) as { results: { id: number }[] }).results.map((r) => r.id));
    return offered.filter((c) => c.id !== page.cabin.id && found.has(c.id));
  } catch {
    return [];
  }
}

/** What the new stay costs (in which cabin, when another), and what the guest pays or gets back. */
function changeQuoteText(q: ChangeQuote, ownCabinId: number): string {
  const where = q.cabin.id === ownCabinId ? '' : `Домик ${quotedName(q.cabin.name)}. `;
  const price = `${where}Новая стоимость ${formatKopecks(q.quote.total * 100)}.`;
  if (q.due > 0) return `${price} Доплата ${formatKopecks(q.due)}.`;
  if (q.refund > 0) return `${price} Вернём ${formatKopecks(q.refund)} по условиям отмены.`;
  if (q.difference < 0) return `${price} Это на ${formatKopecks(-q.difference * 100)} дешевле.`;
  return `${price} Доплачивать ничего не нужно.`;
}

/** What a guests' bot's link says: its button, the consent it gives, the state once tied. */
type LinkWords = { button: string; consent: string; linked: string; opening: string };

/**
 * «Получать сообщения в Telegram» / «… в MAX»: asks for a one-time link to the owner's bot and
 * opens it (the guest then presses «Запустить» or «Начать»). The same form works before hydration,
 * posting to the same route.
 */
function MessengerLink({
  state,
  action,
  words,
}: {
  state: { linked: boolean } | undefined;
  action: string;
  words: LinkWords;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (!state) return null;
  if (state.linked) return <p className="hint">{words.linked}</p>;
  const open = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const { url } = await post<{ url: string }>(action);
      window.location.assign(url);
      setBusy(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
      setBusy(false);
    }
  };
  return (
    <>
      <form className="guest__actions" action={action} method="post" onSubmit={(e) => void open(e)}>
        <button type="submit" className="btn btn--secondary" disabled={busy}>
          {busy ? words.opening : words.button}
        </button>
      </form>
      <p className="hint">{words.consent}</p>
      <FormError message={error} />
    </>
  );
}

const TELEGRAM_WORDS: LinkWords = {
  button: TELEGRAM_BUTTON,
  consent: TELEGRAM_CONSENT_TEXT,
  linked: TELEGRAM_LINKED_TEXT,
  opening: 'Открываем Telegram…',
};
const MAX_WORDS: LinkWords = {
  button: MAX_BUTTON,
  consent: MAX_CONSENT_TEXT,
  linked: MAX_LINKED_TEXT,
  opening: 'Открываем MAX…',
};

export const TelegramLink = ({ page, api }: { page: GuestPageAnswer; api: string }) => (
  <MessengerLink state={page.telegram} action={`${api}/link/telegram`} words={TELEGRAM_WORDS} />
);
export const MaxLink = ({ page, api }: { page: GuestPageAnswer; api: string }) => (
  <MessengerLink state={page.max} action={`${api}/link/max`} words={MAX_WORDS} />
);

/**
 * After the stay: the review form; its review carries «Гость проживал(а)» once the owner approves
 * it. The form's code comes after hydration, so the first render is the server's placeholder.
 */
export function Review({ token }: { token: string }) {
  const id = useId();
  const [ready, setReady] = useState(false);
  const [sent, setSent] = useState(false);
  useEffect(() => {
    adoptStyles(formCss);
    setReady(true);
  }, []);
  if (sent) {
    return (
      <section className="card guest__card" id="review" aria-labelledby="guest-review">
        <h2 id="guest-review">Отзыв</h2>
        <p role="status">Спасибо за отзыв! Он появится на сайте после проверки с отметкой «Гость проживал(а)».</p>
      </section>
    );
  }
  const loading = (
    <p className="hint" role="status">
      Загружаем форму отзыва…
    </p>
  );
  return (
    <section className="guest__review" id="review" aria-label="Отзыв о проживании">
      {ready ? (
        <Suspense fallback={loading}>
          <ReviewFormFields id={id} stayToken={token} onDone={() => setSent(true)} />
        </Suspense>
      ) : (
        loading
      )}
    </section>
  );
}
