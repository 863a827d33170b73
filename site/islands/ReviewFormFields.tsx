// The review form of /reviews: name, e-mail, star rating, comment
// with the remaining-characters counter, the arithmetic captcha, the 152-ФЗ consent. Loaded
// when the visitor opens it (ReviewForm.tsx). Checked with the same zod schema as the server,
// itself loaded on first use.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  DEFAULT_RATING,
  RATING_MAX,
  REVIEW_COMMENT_MAX,
  REVIEW_COUNTER_WARNING_BELOW,
  CAPTCHA,
} from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import { createCaptcha, isCaptchaSolved, type CaptchaQuestion } from '../lib/captcha.ts';
import { countOf } from '../../schema/format.ts';
import { Icon } from './Icon.tsx';
import { iconCheck, iconRefresh, iconStarEmpty, iconStarFilled, iconX } from '../components/icons.ts';
import { ConsentCheck, EmailField, Honeypot, NameField, Sending, TextAreaField } from './FormField.tsx';
import { serverErrorText } from '../lib/server-error.ts';
import { FormError } from './FormError.tsx';

const SEND_FAILED = 'Ошибка при отправке отзыва. Попробуйте еще раз.';
const loadSchema = () => import('../../schema/review-submit.ts').then((m) => m.reviewSubmitSchema);

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'error'; message: string };

interface Props {
  id: string;
  /** After a successful submission (the form is cleared). */
  onDone: () => void;
  /** From the guest's page after the stay: the review is tied to the booking, «Гость проживал(а)». */
  stayToken?: string;
}

export default function ReviewFormFields({ id, onDone, stayToken }: Props) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [comment, setComment] = useState('');
  const [consent, setConsent] = useState(false);
  const [website, setWebsite] = useState('');
  // The question is made in the browser (the server render has none), so it differs per visit.
  const [captcha, setCaptcha] = useState<CaptchaQuestion | null>(null);
  const [answer, setAnswer] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    setCaptcha(createCaptcha());
    void loadSchema();
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, []);

  const solved = captcha !== null && isCaptchaSolved(captcha, answer);
  const remaining = REVIEW_COMMENT_MAX - comment.length;
  const refreshCaptcha = () => {
    setCaptcha(createCaptcha());
    setAnswer('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (status.kind === 'sending') return;
    if (!solved) {
      setStatus({ kind: 'error', message: MSG.captchaUnsolved });
      return;
    }
    if (!name.trim() || !email.trim() || !comment.trim()) {
      setStatus({ kind: 'error', message: MSG.reviewRequired });
      return;
    }
    if (comment.length > REVIEW_COMMENT_MAX) {
      setStatus({ kind: 'error', message: MSG.reviewTooLong });
      return;
    }
    setStatus({ kind: 'sending' });
    let payload: unknown;
    try {
      const schema = await loadSchema();
      const parsed = schema.safeParse({ name, email, rating, comment, consent: consent || undefined, website });
      if (!parsed.success) {
        setStatus({ kind: 'error', message: parsed.error.issues[0]?.message ?? MSG.badInput });
        return;
      }
      payload = stayToken ? { ...parsed.data, stayToken } : parsed.data;
    } catch {
      setStatus({ kind: 'error', message: SEND_FAILED });
      return;
    }
    try {
      const res = await fetch('/api/reviews', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        console.error(`API Error: ${res.status} ${res.statusText}`, body);
        setStatus({ kind: 'error', message: serverErrorText(res.status, body?.error, SEND_FAILED) });
        refreshCaptcha();
        return;
      }
    } catch (err) {
      console.error(err);
      setStatus({ kind: 'error', message: SEND_FAILED });
      return;
    }
    setName('');
    setEmail('');
    setRating(DEFAULT_RATING);
    setComment('');
    setConsent(false);
    refreshCaptcha();
    setStatus({ kind: 'idle' });
    onDone();
  };

  const error = status.kind === 'error' ? status.message : null;
  return (
    <>
      <form className="card review-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <h2 className="review-form__title" id={`${id}-title`}>
          Новый отзыв
        </h2>
        <p className="hint">
          Поля со звёздочкой <span className="req">*</span> обязательны. Отзыв появится после проверки.
        </p>
        <div className="review-form__row">
          <NameField id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} />
          <EmailField
            id={`${id}-email`}
            required
            inputMode="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          >
            <span className="hint">Не публикуется</span>
          </EmailField>
        </div>
        <fieldset className="field rating-input">
          <legend className="label">Оценка</legend>
          <div className="rating-input__stars">
            {Array.from({ length: RATING_MAX }, (_, i) => i + 1).map((n) => (
              <label key={n} className={n <= rating ? 'is-on' : undefined}>
                <input
                  type="radio"
                  name="rating"
                  value={n}
                  checked={rating === n}
                  onChange={() => setRating(n)}
                  className="visually-hidden"
                />
                <Icon svg={n <= rating ? iconStarFilled : iconStarEmpty} />
                <span className="visually-hidden">{countOf(n, ['звезда', 'звезды', 'звёзд'])}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <TextAreaField
          id={`${id}-comment`}
          label="Отзыв"
          required
          name="comment"
          rows={6}
          maxLength={REVIEW_COMMENT_MAX}
          value={comment}
          aria-describedby={`${id}-counter`}
          onChange={(e) => setComment(e.target.value.slice(0, REVIEW_COMMENT_MAX))}
        >
          <span
            id={`${id}-counter`}
            className={remaining < REVIEW_COUNTER_WARNING_BELOW ? 'counter counter--warn' : 'counter'}
          >
            Осталось {countOf(remaining, ['символ', 'символа', 'символов'])}
          </span>
        </TextAreaField>
        <div className="field captcha">
          <label className="label" htmlFor={`${id}-captcha`}>
            Решите пример, чтобы мы знали, что вы не робот <span className="req">*</span>
          </label>
          <div className="captcha__row">
            <span className="captcha__question" aria-live="polite">
              {captcha ? captcha.text : '… = ?'}
            </span>
            <input
              className={`input captcha__input${answer ? (solved ? ' input--valid' : '') : ''}`}
              id={`${id}-captcha`}
              inputMode="numeric"
              autoComplete="off"
              maxLength={CAPTCHA.answerMaxLength}
              value={answer}
              aria-invalid={answer !== '' && !solved ? true : undefined}
              onChange={(e) => setAnswer(e.target.value.slice(0, CAPTCHA.answerMaxLength))}
            />
            {answer !== '' && (
              <span className={solved ? 'captcha__mark captcha__mark--ok' : 'captcha__mark captcha__mark--bad'}>
                <Icon svg={solved ? iconCheck : iconX} label={solved ? 'Верно' : 'Неверно'} />
              </span>
            )}
            <button
              type="button"
              className="btn btn--icon btn--ghost"
              onClick={refreshCaptcha}
              aria-label="Другой пример"
            >
              <Icon svg={iconRefresh} />
            </button>
          </div>
        </div>
        <div className="field">
          <ConsentCheck checked={consent} onChange={(e) => setConsent(e.target.checked)} />
        </div>
        <Honeypot id={`${id}-website`} value={website} onChange={(e) => setWebsite(e.target.value)} />
        <FormError message={error} />
        {!solved && !error && (
          <p className="hint review-form__gate" id={`${id}-gate`}>
            {MSG.captchaUnsolved}
          </p>
        )}
        <button
          type="submit"
          className="btn btn--primary btn--lg btn--block"
          disabled={!solved || status.kind === 'sending'}
          aria-describedby={!solved && !error ? `${id}-gate` : undefined}
        >
          {status.kind === 'sending' ? <Sending /> : 'Отправить отзыв'}
        </button>
      </form>
    </>
  );
}
