// A review card in the reviews island: the same markup and classes as the home page's
// ReviewCard.astro. Initial, name, Russian date, stars, the text cut to the preview length.
import type { ReactNode } from 'react';
import { formatDate, initial } from '../../schema/format.ts';
import type { PublicReview } from '../lib/reviews-pick.ts';
import { truncate } from '../lib/truncate.ts';
import { Stars } from './Stars.tsx';
import { VERIFIED_STAY_LABEL } from '../lib/seo.ts';

interface Props {
  review: PublicReview;
  /** Characters before the cut: 120 on /reviews. */
  preview: number;
  /** The «Читать полностью» control, given whether the text was cut. */
  more: (truncated: boolean) => ReactNode;
  headingLevel?: 'h2' | 'h3';
}

export function ReviewCard({ review, preview, more, headingLevel: H = 'h3' }: Props) {
  const cut = truncate(review.comment, preview);
  return (
    <article className="card review-card">
      <ReviewHead review={review} as="header" nameAs={H} />
      <p className="review-card__text">{cut.text}</p>
      {more(cut.truncated)}
    </article>
  );
}

/** Author initial, name, date and stars: the same head on a review card and in the modal. */
export function ReviewHead({
  review,
  as: Wrap,
  nameAs: N,
}: {
  review: PublicReview;
  as: 'header' | 'div';
  nameAs: 'h2' | 'h3' | 'p';
}) {
  return (
    <Wrap className="review-card__head arrives-whole">
      <span className="avatar" aria-hidden="true">
        {initial(review.name)}
      </span>
      <div className="review-card__who">
        <N className="review-card__name">{review.name}</N>
        <time className="review-card__date" dateTime={review.created_at}>
          {formatDate(review.created_at)}
        </time>
        {review.verifiedStay ? <span className="review-card__verified">{VERIFIED_STAY_LABEL}</span> : null}
      </div>
      <Stars rating={review.rating} />
    </Wrap>
  );
}
