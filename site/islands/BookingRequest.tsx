// The booking request form of the booking card (issue 11, point 1): once a stay is picked, the
// visitor leaves a name and a phone (an e-mail and a comment if they like), says how to be
// contacted and ticks the 152-ФЗ consent; POST /api/bookings stores the request, so the owner
// has it whatever happens to the messenger. Loaded on demand with its schema. What the visitor
// typed lives in the card (`draft`), so it survives a failed send, new dates or a closed form.
import { useState, type FormEvent } from 'react';
import { bookingSubmitSchema, type BookingChannel } from '../../schema/bookings.ts';
import type { OfferedChannel } from '../lib/channels.ts';
import { MSG } from '../../schema/messages.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import controlsCss from '../styles/controls.css?inline';
import requestCss from './BookingRequest.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { ConsentText } from './ConsentText.tsx';
import { serverErrorText } from '../lib/server-error.ts';

// The form's styles (and the checkbox, alert and honeypot ones) come with it, not in the cabin page's HTML.
adoptStyles(controlsCss);
adoptStyles(requestCss);

export type BookingDraft = { name: string; phone: string; email: string; comment: string; consent: boolean; channel: BookingChannel; website: string };

const SEND_FAILED = 'Не удалось отправить заявку. Проверьте интернет и попробуйте ещё раз: всё, что вы ввели, сохранено.';

/** What POST /api/bookings answers: with prepayment on, ЮKassa's page; or why it could not be reached. */
export type BookingAnswer = {
  id: number;
  nights: number;
  total: number;
  payment?: { amount: number; confirmationUrl: string; holdUntil: string };
  paymentError?: string;
};

interface Props {
  id: string;
  cabinId: number;
  stay: { checkIn: string; checkOut: string; guests: number };
  /** The ways the owner offers, in order. */
  channels: OfferedChannel[];
  draft: BookingDraft;
  onDraft: (draft: BookingDraft) => void;
  /** With prepayment on: the amount paid up front, in kopecks (the server computes it again). */
  prepayment: number | null;
  /** The request is stored (and, with prepayment, could not go to ЮKassa: `paymentError`). */
  onSent: (sent: BookingAnswer) => void;
  /** The nights were taken meanwhile: the card reloads the free dates. */
  onTaken: () => void;
}

export default function BookingRequest({ id, cabinId, stay, channels, draft, onDraft, prepayment, onSent, onTaken }: Props) {
  const [sending, setSending] = useState(false);
  // ЮKassa's page for this guest's held nights: coming back from it (the Back button) shows a
  // way to it again, not a second booking that their own hold would refuse.
  const [payUrl, setPayUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof BookingDraft>(key: K, value: BookingDraft[K]) => onDraft({ ...draft, [key]: value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const parsed = bookingSubmitSchema.safeParse({ cabinId, ...stay, ...draft, consent: draft.consent || undefined });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MSG.badInput);
      return;
    }
    setSending(true);
    setError(null);
    try {
      const res = await fetch('/api/bookings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(parsed.data) });
      const body = (await res.json().catch(() => null)) as (BookingAnswer & { error?: string }) | null;
      if (res.status === 201 && body?.payment?.confirmationUrl) {
        // The nights are held for this guest; ЮKassa's page takes the payment and sends them back.
        setPayUrl(body.payment.confirmationUrl);
        window.location.assign(body.payment.confirmationUrl);
        return;
      }
      if (res.status === 201 && body) {
        onSent(body);
        return;
      }
      if (res.status === 409) onTaken();
      setError(serverErrorText(res.status, body?.error, SEND_FAILED));
    } catch {
      setError(SEND_FAILED);
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="booking__request" onSubmit={submit} noValidate aria-labelledby={`${id}-request`}>
      {prepayment === null ? (
        <>
          <h3 className="booking__request-title" id={`${id}-request`}>Заявка на эти даты</h3>
          <p className="hint">Оставьте имя и телефон: заявка сохранится у нас, даже если мессенджер не откроется.</p>
        </>
      ) : (
        <>
          <h3 className="booking__request-title" id={`${id}-request`}>Бронирование на эти даты</h3>
          <p className="hint">Оставьте имя и телефон и внесите предоплату {formatKopecks(prepayment)}: бронирование подтвердится сразу, остаток — при заезде. Пока вы платите, даты держим за вами.</p>
        </>
      )}
      <div className="field">
        <label className="label" htmlFor={`${id}-name`}>Имя <span className="req">*</span></label>
        <input className="input" id={`${id}-name`} name="name" autoComplete="name" maxLength={100} required value={draft.name} onChange={(e) => set('name', e.target.value)} />
      </div>
      <div className="field">
        <label className="label" htmlFor={`${id}-phone`}>Телефон <span className="req">*</span></label>
        <input className="input" id={`${id}-phone`} name="phone" type="tel" inputMode="tel" autoComplete="tel" maxLength={30} required placeholder="+7 900 000-00-00" value={draft.phone} onChange={(e) => set('phone', e.target.value)} />
      </div>
      <div className="field">
        <label className="label" htmlFor={`${id}-email`}>E-mail</label>
        <input className="input" id={`${id}-email`} name="email" type="email" inputMode="email" autoComplete="email" maxLength={200} value={draft.email} onChange={(e) => set('email', e.target.value)} />
      </div>
      <div className="field">
        <label className="label" htmlFor={`${id}-comment`}>Комментарий</label>
        <textarea className="input" id={`${id}-comment`} name="comment" rows={2} maxLength={1000} value={draft.comment} onChange={(e) => set('comment', e.target.value)} />
      </div>
      <fieldset className="field booking__channels">
        <legend className="label">Как с вами связаться</legend>
        {channels.map(({ id: value, label }) => (
          <label className="check" key={value}>
            <input type="radio" name="channel" value={value} checked={draft.channel === value} onChange={() => set('channel', value)} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" name="consent" checked={draft.consent} onChange={(e) => set('consent', e.target.checked)} required />
        <ConsentText />
      </label>
      <div className="hp" aria-hidden="true">
        <label htmlFor={`${id}-website`}>Не заполняйте это поле</label>
        <input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" value={draft.website} onChange={(e) => set('website', e.target.value)} />
      </div>
      {error && <p className="alert" role="alert">{error}</p>}
      {payUrl ? (
        <a className="btn btn--primary btn--block" href={payUrl}>Перейти к оплате</a>
      ) : (
        <button type="submit" className="btn btn--primary btn--block" disabled={sending}>
          {prepayment === null ? (sending ? 'Отправляем…' : 'Отправить заявку') : sending ? 'Переходим к оплате…' : `Оплатить ${formatKopecks(prepayment)}`}
        </button>
      )}
    </form>
  );
}
