// The guest's own page, /b/{token}: where the booking stands, every price line, what was
// paid and what is left («Оплатить остаток»), once confirmed the way there and whom to call,
// «Добавить в календарь», the cancellation by the owner's policy (what comes back is said before
// the guest confirms), and after the stay the review form whose review is marked «Гость
// проживал(а)». Everything is read live from GET /api/guest/{token}; the address is the only key.
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import type { GuestCancelAnswer, GuestPageAnswer } from '../../schema/guest-page.ts';
import { BOOKING_STATUS_LABELS, type BookingStatus } from '../../schema/booking-options.ts';
import { formatDate, formatGuests, formatNights, formatStayDates, plural } from '../../schema/format.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import { serverErrorText } from '../lib/server-error.ts';
import controlsCss from '../styles/controls.css?inline';
import fieldsCss from '../styles/fields.css?inline';
import formCss from '../styles/review-form.css?inline';
import pageCss from './GuestPage.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { PriceLines } from './PriceLines.tsx';

adoptStyles(controlsCss);
adoptStyles(fieldsCss);
adoptStyles(formCss);
adoptStyles(pageCss);

const ReviewFormFields = lazy(() => import('./ReviewFormFields.tsx'));

const READ_FAILED = 'Не удалось загрузить бронирование. Проверьте интернет и обновите страницу.';
const ACTION_FAILED = 'Не получилось: проверьте интернет и попробуйте ещё раз.';

/** What the guest reads at the top: the booking's state in their words, not the panel's. */
const HEADLINES: Record<BookingStatus, string> = {
  new: 'Заявка отправлена: ждёт подтверждения',
  awaiting_payment: 'Ждём предоплату',
  confirmed: 'Бронирование подтверждено',
  cancelled: 'Бронирование отменено',
  declined: 'Заявка отклонена',
  expired: 'Бронь истекла: предоплата не поступила',
};

type State = { kind: 'loading' } | { kind: 'missing'; message: string } | { kind: 'error'; message: string } | { kind: 'ready'; page: GuestPageAnswer };

/** A cabin's name in «», unless it has its own: «Домик «Бриз» у воды» is read as it is. */
const quoted = (name: string) => (/[«»"]/.test(name) ? name : `«${name}»`);

/** The token is the page's address: /b/{token}. */
const tokenOf = () => window.location.pathname.split('/').filter(Boolean)[1] ?? '';

async function post<T>(path: string): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok || !body) throw new Error(serverErrorText(res.status, body?.error, ACTION_FAILED));
  return body;
}

export default function GuestPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const token = typeof window === 'undefined' ? '' : tokenOf();
  const api = `/api/guest/${encodeURIComponent(token)}`;

  async function read() {
    try {
      const res = await fetch(api, { cache: 'no-store' });
      const body = (await res.json().catch(() => null)) as (GuestPageAnswer & { error?: string }) | null;
      if (res.status === 404) return setState({ kind: 'missing', message: body?.error ?? 'Страница бронирования не найдена' });
      if (!res.ok || !body) throw new Error(serverErrorText(res.status, body?.error, READ_FAILED));
      setState({ kind: 'ready', page: body });
    } catch (err) {
      setState({ kind: 'error', message: err instanceof Error && err.message !== 'Failed to fetch' ? err.message : READ_FAILED });
    }
  }
  useEffect(() => void read(), []);

  if (state.kind === 'loading') return <p className="hint guest__loading" role="status">Загружаем бронирование…</p>;
  if (state.kind === 'missing') {
    return (
      <div className="card guest__card">
        <h1>Бронирование не найдено</h1>
        <p>{state.message}. Проверьте ссылку из письма или напишите нам.</p>
        <p><a className="btn btn--secondary" href="/contacts">Контакты</a></p>
      </div>
    );
  }
  if (state.kind === 'error') {
    return (
      <div className="alert" role="alert">
        <p>{state.message}</p>
        <button type="button" className="btn btn--secondary" onClick={() => void read()}>Обновить</button>
      </div>
    );
  }
  return <Booking page={state.page} api={api} token={token} reload={read} />;
}

function Booking({ page, api, token, reload }: { page: GuestPageAnswer; api: string; token: string; reload: () => Promise<void> }) {
  const status = (page.status in HEADLINES ? page.status : 'new') as BookingStatus;
  return (
    <>
      <header className="guest__head">
        <p className={`badge guest__status guest__status--${status}`}>{BOOKING_STATUS_LABELS[status]}</p>
        <h1>{HEADLINES[status]}</h1>
        <p className="guest__stay">
          <a href={`/cabin/${page.cabin.id}`}>{quoted(page.cabin.name)}</a>: {formatStayDates(page.checkIn, page.checkOut)}, {formatNights(page.nights)}, {formatGuests(page.guests)}.
          {' '}Заезд с {page.checkInTime}, выезд до {page.checkOutTime}. Бронирование №{page.id}.
        </p>
      </header>

      <section className="card guest__card" aria-labelledby="guest-money">
        <h2 id="guest-money">Стоимость и оплата</h2>
        <PriceLines lines={page.lines} total={page.total} className="guest__lines" totalClassName="guest__total">
          {page.paid > 0 || page.refunded > 0 ? (
            <div>
              <dt>Оплачено</dt>
              <dd>{formatKopecks(page.paid)}</dd>
            </div>
          ) : null}
          {page.refunded > 0 ? (
            <div>
              <dt>Возвращено</dt>
              <dd>{formatKopecks(page.refunded)}</dd>
            </div>
          ) : null}
          {page.due > 0 && status !== 'cancelled' ? (
            <div className="guest__due">
              <dt>Осталось оплатить</dt>
              <dd>{formatKopecks(page.due)}</dd>
            </div>
          ) : null}
        </PriceLines>
        <PayRest page={page} api={api} reload={reload} />
      </section>

      {page.instructions ? <Arrival page={page} api={api} /> : null}
      <Cancel page={page} api={api} reload={reload} />
      <Review page={page} token={token} />
    </>
  );
}

/** «Оплатить остаток»: a second payment at ЮKassa for what is due; back from it, the page reads anew. */
function PayRest({ page, api, reload }: { page: GuestPageAnswer; api: string; reload: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (page.pendingPayment?.confirmationUrl) {
    return (
      <div className="guest__actions">
        <p className="hint">Платёж на {formatKopecks(page.pendingPayment.amount)} начат, но ещё не завершён.</p>
        <a className="btn btn--primary" href={page.pendingPayment.confirmationUrl}>Вернуться к оплате</a>
        <button type="button" className="btn btn--secondary" onClick={() => void reload()}>Проверить оплату</button>
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
      {error ? <p className="alert" role="alert">{error}</p> : null}
    </div>
  );
}

/** Once confirmed: the address, the map, the owner's instructions, whom to call, and the stay for the phone's calendar. */
function Arrival({ page, api }: { page: GuestPageAnswer; api: string }) {
  const i = page.instructions!;
  return (
    <section className="card guest__card" aria-labelledby="guest-way">
      <h2 id="guest-way">Как добраться и заселиться</h2>
      {i.address ? (
        <p>
          <strong>Адрес:</strong> {i.address}
          {i.mapUrl ? <> · <a href={i.mapUrl} target="_blank" rel="noopener noreferrer">Открыть на карте</a></> : null}
        </p>
      ) : null}
      {i.text ? <p className="guest__instructions">{i.text}</p> : null}
      <p>
        <strong>Связь с хозяином:</strong>{' '}
        {i.phone ? <a href={`tel:${i.phone.replace(/[^\d+]/g, '')}`}>{i.phone}</a> : null}
        {i.phone && i.email ? ', ' : null}
        {i.email ? <a href={`mailto:${i.email}`}>{i.email}</a> : null}
      </p>
      <p>
        <a className="btn btn--secondary" href={`${api}/stay.ics`} download={`stay-${page.id}.ics`}>Добавить в календарь</a>
      </p>
    </section>
  );
}

/** The policy in words, what cancelling now gives back, then «Отменить бронирование» after a second look. */
function Cancel({ page, api, reload }: { page: GuestPageAnswer; api: string; reload: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState<GuestCancelAnswer | null>(null);
  const { cancel } = page;
  const policy =
    cancel.policy.freeUntilDays === 0
      ? 'Отмена бесплатна до дня заезда.'
      : `Отмена бесплатна не позднее чем за ${cancel.policy.freeUntilDays} ${plural(cancel.policy.freeUntilDays, DAYS)} до заезда${cancel.freeUntil ? ` (до ${formatDate(cancel.freeUntil)} включительно)` : ''}.` +
        (cancel.policy.keepPercent > 0 ? ` Позже удерживаем ${cancel.policy.keepPercent} % стоимости проживания, но не больше оплаченного.` : ' Позже — тоже без удержаний.');

  if (page.status === 'cancelled') {
    const refunded = done?.refunded ?? page.refunded;
    return (
      <section className="card guest__card" aria-labelledby="guest-cancel">
        <h2 id="guest-cancel">Отмена</h2>
        <p role="status">
          Бронирование отменено.{' '}
          {refunded > 0 ? `Возвращаем ${formatKopecks(refunded)} на карту, с которой вы платили: обычно деньги приходят за несколько дней.` : 'Денег к возврату нет.'}
        </p>
      </section>
    );
  }
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      setDone(await post<GuestCancelAnswer>(`${api}/cancel`));
      await reload();
    } catch (err) {
      setError(err instanceof Error ? err.message : ACTION_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card guest__card" aria-labelledby="guest-cancel">
      <h2 id="guest-cancel">Условия отмены</h2>
      <p>{policy}</p>
      {!cancel.allowed ? (
        cancel.reason ? <p className="hint">{cancel.reason}</p> : null
      ) : asking ? (
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
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void confirm()}>{busy ? 'Отменяем…' : 'Да, отменить'}</button>
            <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setAsking(false)}>Нет, оставить</button>
          </div>
        </div>
      ) : (
        <p>
          <button type="button" className="btn btn--secondary" onClick={() => setAsking(true)}>Отменить бронирование</button>
        </p>
      )}
      {error ? <p className="alert" role="alert">{error}</p> : null}
    </section>
  );
}

const DAYS = ['день', 'дня', 'дней'] as const;

/** After the stay: the review form; its review carries «Гость проживал(а)» once the owner approves it. */
function Review({ page, token }: { page: GuestPageAnswer; token: string }) {
  const id = useId();
  const [sent, setSent] = useState(false);
  useEffect(() => {
    if (page.canReview && window.location.hash === '#review') document.getElementById('review')?.scrollIntoView();
  }, [page.canReview]);
  if (page.reviewed || sent) {
    return (
      <section className="card guest__card" id="review" aria-labelledby="guest-review">
        <h2 id="guest-review">Отзыв</h2>
        <p role="status">Спасибо за отзыв! Он появится на сайте после проверки с отметкой «Гость проживал(а)».</p>
      </section>
    );
  }
  if (!page.canReview) return null;
  return (
    <section className="guest__review" id="review" aria-label="Отзыв о проживании">
      <Suspense fallback={<p className="hint" role="status">Загружаем форму отзыва…</p>}>
        <ReviewFormFields id={id} stayToken={token} onDone={() => setSent(true)} />
      </Suspense>
    </section>
  );
}
