// «Оставить отзыв» on /reviews: the hero's button toggles the review form
// (Оставить отзыв / Скрыть форму); after a successful submission the thank-you screen, whose
// button goes back to the reviews, reloaded. It hydrates over the build's drawing when the button
// is reached (reviews-loader.ts, mount-reviews.ts) and the form itself loads when first opened.
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';
import { useIslandReady } from './useIslandReady.ts';
import { iconCheck, iconClose, iconEdit } from '../components/icons.ts';
import fieldsCss from '../styles/fields.css?inline';
import controlsCss from '../styles/controls.css?inline';
import formCss from '../styles/review-form.css?inline';
import { adoptStyles } from './adopt-styles.ts';

// Nothing of the form shows before this runs (the page has only the button): its styles come
// with it, not in the reviews page's HTML.
adoptStyles(fieldsCss);
adoptStyles(controlsCss);
adoptStyles(formCss);

const loadFields = () => import('./ReviewFormFields.tsx');
const ReviewFormFields = lazy(loadFields);

export default function ReviewForm() {
  const id = useId();
  const [open, setOpen] = useState(false);
  // Once opened the form stays mounted: hiding it keeps what was typed.
  const [mounted, setMounted] = useState(false);
  const [done, setDone] = useState(false);

  const thanks = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (done) thanks.current?.focus();
  }, [done]);
  useEffect(() => {
    if (open) box.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [open]);
  useIslandReady('review-form');

  if (done) {
    return (
      <div className="card review-thanks" ref={thanks} tabIndex={-1} role="status">
        <span className="review-thanks__icon">
          <Icon svg={iconCheck} />
        </span>
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
