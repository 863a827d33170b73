// The approved reviews on /reviews: cards of 10 a page with the catalogue's
// pager, «Читать полностью» opening the full review, ?open={id} (the home page's hand-off)
// opening that review and then resetting the address to /reviews, and the empty state. It
// hydrates over the build's drawing on the first interaction with the list, or at once for ?open=
// (reviews-loader.ts, mount-reviews.ts).
import { useEffect, useRef, useState } from 'react';
import { REVIEW_CARD_PREVIEW_CHARS, REVIEWS_PAGE_SIZE } from '../../schema/constants.ts';
import { findReview, openParam } from '../lib/handoff.ts';
import { paginate } from '../lib/pager.ts';
import type { PublicReview } from '../lib/reviews-pick.ts';
import { Icon } from './Icon.tsx';
import { Pager } from './Pager.tsx';
import { ReviewCard } from './ReviewCard.tsx';
import { ReviewModal } from './ReviewModal.tsx';
import { useIslandReady } from './useIslandReady.ts';
import { iconStarEmpty } from '../components/icons.ts';

export default function ReviewsList({ reviews }: { reviews: PublicReview[] }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<PublicReview | null>(null);

  const top = useRef<HTMLDivElement>(null);
  const current = paginate(reviews, page, REVIEWS_PAGE_SIZE);

  useEffect(() => {
    const id = openParam(window.location.search);
    if (id === null) return;
    const review = findReview(reviews, id);
    if (review) {
      const index = reviews.findIndex((r) => r.id === id);
      if (index >= 0) setPage(Math.floor(index / REVIEWS_PAGE_SIZE) + 1);
      setOpen(review);
    }
    window.history.replaceState(window.history.state, '', '/reviews');
  }, [reviews]);

  useIslandReady('reviews');

  const goTo = (n: number) => {
    setPage(n);
    top.current?.scrollIntoView({
      behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
      block: 'start',
    });
  };

  if (reviews.length === 0) {
    return (
      <div className="empty">
        <span className="empty__icon">
          <Icon svg={iconStarEmpty} />
        </span>
        <h2>Пока нет отзывов</h2>
        <p className="muted">Станьте первым, кто оставит отзыв!</p>
      </div>
    );
  }

  return (
    <div className="reviews-list" ref={top}>
      <div className="reviews-grid arrives-whole">
        {current.items.map((review) => (
          <ReviewCard
            key={review.id}
            review={review}
            preview={REVIEW_CARD_PREVIEW_CHARS}
            headingLevel="h3"
            more={(truncated) =>
              truncated && (
                <button type="button" className="link-btn" onClick={() => setOpen(review)}>
                  Читать полностью<span className="visually-hidden">: отзыв {review.name}</span>
                </button>
              )
            }
          />
        ))}
      </div>
      <Pager page={current.page} pages={current.pages} window={current.window} onPage={goTo} label="Страницы отзывов" />
      {open && <ReviewModal review={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
