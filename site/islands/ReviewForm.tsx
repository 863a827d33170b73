// «Оставить отзыв» on /reviews (SPEC.md section 2): the hero's button toggles the review form
// (Оставить отзыв / Скрыть форму); after a successful submission the thank-you screen, whose
// button goes back to the reviews, reloaded. The form itself loads when first opened.
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';
import { iconCheck, iconClose, iconEdit } from '../components/icons.ts';

const loadFields = () => import('./ReviewFormFields.tsx');
const ReviewFormFields = lazy(loadFields);

export default function ReviewForm() {
  const id = useId();
  const [open, setOpen] = useState(false);
  // Once opened the form stays mounted: hiding it keeps what was typed.
  const [mounted, setMounted] = useState(false);
  const [done, setDone] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const thanks = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (done) thanks.current?.focus();
  }, [done]);
  useEffect(() => {
    if (open) box.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [open]);

  if (done) {
    return (
      <div className="card review-thanks" ref={thanks} tabIndex={-1} role="status">
        <span className="review-thanks__icon"><Icon svg={iconCheck} /></span>
        <h2>Спасибо за отзыв!</h2>
        <p>Ваш отзыв отправлен на модерацию и появится на сайте после проверки.</p>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            // Reload the reviews and land on the list.
            window.history.replaceState(null, '', '/reviews#reviews');
            window.location.reload();
          }}
        >
          Вернуться к отзывам
        </button>
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className="btn btn--primary btn--lg review-toggle"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        data-ready={ready ? '' : undefined}
        onPointerEnter={() => void loadFields()}
        onFocus={() => void loadFields()}
        onClick={() => {
          setMounted(true);
          setOpen((o) => !o);
        }}
      >
        <Icon svg={open ? iconClose : iconEdit} />
        {open ? 'Скрыть форму' : 'Оставить отзыв'}
      </button>
      <div id={`${id}-form`} hidden={!open} ref={box}>
        {mounted && (
          <Suspense fallback={<div className="spinner" role="status" aria-label="Загрузка формы" />}>
            <ReviewFormFields id={id} onDone={() => setDone(true)} />
          </Suspense>
        )}
      </div>
    </>
  );
}
