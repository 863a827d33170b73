// «Полный отзыв»: initial, name, date, five-star rating, the whole comment,
// «Закрыть»; closes on Escape or a click on the dim background.
import { useId, useRef } from 'react';
import type { PublicReview } from '../lib/reviews-pick.ts';
import { Icon } from './Icon.tsx';
import { ReviewHead } from './ReviewCard.tsx';
import { useModal } from './useModal.ts';
import { iconClose } from '../components/icons.ts';
import controlsCss from '../styles/controls.css?inline';
import modalCss from '../styles/modal.css?inline';
import formCss from '../styles/review-form.css?inline';
import { adoptStyles } from './adopt-styles.ts';

// The modal's styles come with the list's script (it opens only once the list has woken).
adoptStyles(controlsCss);
adoptStyles(modalCss);
adoptStyles(formCss);

export function ReviewModal({ review, onClose }: { review: PublicReview; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const pressedOutside = useRef(false);
  const id = useId();
  useModal(ref, true, onClose);
  return (
    <div
      className="modal-backdrop"
      // A click that starts and ends on the dim background closes; the press does not take the focus.
      onMouseDown={(e) => {
        pressedOutside.current = e.target === e.currentTarget;
        if (pressedOutside.current) e.preventDefault();
      }}
      onClick={(e) => {
        if (pressedOutside.current && e.target === e.currentTarget) onClose();
        pressedOutside.current = false;
      }}
    >
      <div
        className="modal review-modal"
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-t`}
        tabIndex={-1}
      >
        <button
          type="button"
          className="btn btn--icon btn--ghost modal__close"
          onClick={onClose}
          aria-label="Закрыть окно"
        >
          <Icon svg={iconClose} />
        </button>
        <h2 className="modal__title" id={`${id}-t`}>
          Полный отзыв
        </h2>
        <ReviewHead review={review} as="div" nameAs="p" />
        <p className="review-modal__text">{review.comment}</p>
        <div className="modal__actions">
          <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
            Закрыть
          </button>
        </div>
      </div>
    </div>
  );
}
