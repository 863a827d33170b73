// The booking request form of the booking card: once a stay is picked, the
// visitor leaves a name and a phone (an e-mail and a comment if they like), says how to be
// contacted and ticks the 152-ФЗ consent; POST /api/bookings stores the request, so the owner
// has it whatever happens to the messenger. Loaded on demand with its schema. What the visitor
// typed lives in the card (`draft`), so it survives a failed send, new dates or a closed form.
// The extras ticked and the promo code go with it; a code the server no longer takes
// (used up meanwhile) is told beside the code's field, and nothing typed is lost.
import { useState, type FormEvent } from 'react';
import { bookingSubmitSchema, type BookingChannel } from '../../schema/bookings.ts';
import type { OfferedChannel } from '../lib/channels.ts';
import { MSG } from '../../schema/messages.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import controlsCss from '../styles/controls.css?inline';
import requestCss from './BookingRequest.css?inline';
import { adoptStyles } from './adopt-styles.ts';
import { ConsentCheck, EmailField, Honeypot, InputField, NameField, TextAreaField } from './FormField.tsx';
import { serverErrorText } from '../lib/server-error.ts';
import { track, visitSource } from '../lib/visit.ts';
import { FormError } from './FormError.tsx';

// The extras and the code (StayOptions.tsx) show with this form: one chunk, one request.
export { StayOptions } from './StayOptions.tsx';

// The form's styles (and the checkbox, alert and honeypot ones) come with it, not in the cabin page's HTML.
adoptStyles(controlsCss);
adoptStyles(requestCss);

export type BookingDraft = {
  name: string;
  phone: string;
  email: string;
  comment: string;
  consent: boolean;
  channel: BookingChannel;
  website: string;
};

const SEND_FAILED =
  'Не удалось отправить заявку. Проверьте интернет и попробуйте ещё раз: всё, что вы ввели, сохранено.';
/** The server's reasons a promo code does not apply (GET /api/quote and POST /api/bookings give the same). */
const PROMO_REASONS: ReadonlySet<string> = new Set([
  MSG.promoNotFound,
  MSG.promoNotYet,
  MSG.promoExpired,
  MSG.promoUsedUp,
  MSG.promoNotForDates,
  MSG.promoCodeInvalid,
]);
/** What a press of «Отправить» that checked the code first says: nothing was sent yet. */
const PROMO_CHECKED = {
  applied: 'Промокод применён, итог пересчитан. Проверьте стоимость и отправьте заявку ещё раз.',
  refused:
    'Промокод не подошёл, причина — у поля «Промокод». Итог посчитан без него: отправьте заявку ещё раз или исправьте промокод.',
  failed: 'Не удалось проверить промокод. Проверьте интернет и попробуйте ещё раз: всё, что вы ввели, сохранено.',
} as const;
/** Whether a press of «Отправить» checked the code first, and what came of it (the card's answer). */
export type PromoCheck = keyof typeof PROMO_CHECKED;

/** What POST /api/bookings answers: with prepayment on, ЮKassa's page; or why it could not be reached. */
export type BookingAnswer = {
  id: number;
  nights: number;
  total: number;
  payment?: { amount: number; confirmationUrl: string; holdUntil: string };
  paymentError?: string;
  /** The guest's own page of this booking: `/b/{token}`. */
  guestUrl?: string;
};

interface Props {
  id: string;
  cabinId: number;
  /** `guests`: the adults; the children's ages and pets beside them. */
  stay: { checkIn: string; checkOut: string; guests: number; childrenAges: number[]; pets: boolean };
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
  /** The optional extras ticked (the server adds the mandatory ones). */
  extras: readonly number[];
  /** The promo code the shown price includes, as typed; '' for none. */
  promo: string;
  /** A code typed but not yet checked: «Отправить» checks it first (the card shows the new price) and sends nothing. */
  promoUnchecked: boolean;
  onCheckPromo: () => Promise<PromoCheck>;
  /** The server refused the code on sending: the card shows why beside the code's field and prices without it. */
  onPromoRefused: (reason: string) => void;
  /** The price is being asked of the server (a code with new dates): sending waits for it. */
  pricing: boolean;
}

export default function BookingRequest({
  id,
  cabinId,
  stay,
  channels,
  draft,
  onDraft,
  prepayment,
  onSent,
  onTaken,
  extras,
  promo,
  promoUnchecked,
  onCheckPromo,
  onPromoRefused,
  pricing,
}: Props) {
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  // ЮKassa's page for this guest's held nights: coming back from it (the Back button) shows a
  // way to it again, not a second booking that their own hold would refuse.
  const [payUrl, setPayUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof BookingDraft>(key: K, value: BookingDraft[K]) => onDraft({ ...draft, [key]: value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending || pricing) return;
    const parsed = bookingSubmitSchema.safeParse({
      cabinId,
      ...stay,
      ...draft,
      consent: draft.consent || undefined,
      extras: [...extras],
      promo,
      source: visitSource(),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MSG.badInput);
      return;
    }
    setSending(true);
    setError(null);
    if (promoUnchecked) {
      // The visitor typed a code and went straight to «Отправить»: its price first, then their choice.
      setChecking(true);
      setError(PROMO_CHECKED[await onCheckPromo()]);
      setChecking(false);
      setSending(false);
      return;
    }
    try {
      const res = await fetch('/api/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(parsed.data),
      });
      const body = (await res.json().catch(() => null)) as (BookingAnswer & { error?: string }) | null;
      if (res.status === 201 && body?.payment?.confirmationUrl) {
        track('request', { cabinId });
        // The nights are held for this guest; ЮKassa's page takes the payment and sends them back.
        setPayUrl(body.payment.confirmationUrl);
        window.location.assign(body.payment.confirmationUrl);
        return;
      }
      if (res.status === 201 && body) {
        track('request', { cabinId });
        onSent(body);
        return;
      }
      if (res.status === 409) onTaken();
      if (res.status === 400 && body?.error && PROMO_REASONS.has(body.error)) {
        // The code no longer applies (its last use went to another guest meanwhile): why, beside it.
        onPromoRefused(body.error);
        setError(PROMO_CHECKED.refused);
        return;
      }
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
          <h3 className="booking__request-title" id={`${id}-request`}>
            Заявка на эти даты
          </h3>
          <p className="hint">Оставьте имя и телефон: заявка сохранится у нас, даже если мессенджер не откроется.</p>
        </>
      ) : (
        <>
          <h3 className="booking__request-title" id={`${id}-request`}>
            Бронирование на эти даты
          </h3>
          <p className="hint">
            Оставьте имя и телефон и внесите предоплату {formatKopecks(prepayment)}: бронирование подтвердится сразу,
            остаток — при заезде. Пока вы платите, даты держим за вами.
          </p>
        </>
      )}
      <NameField id={`${id}-name`} value={draft.name} onChange={(e) => set('name', e.target.value)} />
      <InputField
        id={`${id}-phone`}
        label="Телефон"
        required
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        maxLength={30}
        placeholder="+7 900 000-00-00"
        value={draft.phone}
        onChange={(e) => set('phone', e.target.value)}
      />
      <EmailField
        id={`${id}-email`}
        label="E-mail"
        inputMode="email"
        value={draft.email}
        onChange={(e) => set('email', e.target.value)}
      />
      <TextAreaField
        id={`${id}-comment`}
        label="Комментарий"
        name="comment"
        rows={2}
        maxLength={1000}
        value={draft.comment}
        onChange={(e) => set('comment', e.target.value)}
      />
      <fieldset className="field booking__channels">
        <legend className="label">Как с вами связаться</legend>
        {channels.map(({ id: value, label }) => (
          <label className="check" key={value}>
            <input
              type="radio"
              name="channel"
              value={value}
              checked={draft.channel === value}
              onChange={() => set('channel', value)}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <ConsentCheck checked={draft.consent} onChange={(e) => set('consent', e.target.checked)} />
      <Honeypot id={`${id}-website`} value={draft.website} onChange={(e) => set('website', e.target.value)} />
      <FormError message={error} />
      {payUrl ? (
        <a className="btn btn--primary btn--block" href={payUrl}>
          Перейти к оплате
        </a>
      ) : (
        <button type="submit" className="btn btn--primary btn--block" disabled={sending || pricing}>
          {checking
            ? 'Проверяем промокод…'
            : prepayment === null
              ? sending
                ? 'Отправляем…'
                : 'Отправить заявку'
              : sending
                ? 'Переходим к оплате…'
                : `Оплатить ${formatKopecks(prepayment)}`}
        </button>
      )}
    </form>
  );
}
