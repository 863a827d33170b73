import type { IconName } from '../components/icons.ts';
import { RATING_MAX } from '../../schema/constants.ts';

/** An icon drawn from the page's sprite (IconSprite in the .astro page must include it). */
export function SpriteIcon({ name }: { name: IconName }) {
  return (
    <svg className="icon" aria-hidden="true">
      <use href={`#i-${name}`} />
    </svg>
  );
}

/** Five stars, `rating` of them filled; from the sprite (star-filled, star-empty). */
export function Stars({ rating, max = RATING_MAX }: { rating: number; max?: number }) {
  return (
    <span className="stars" role="img" aria-label={`Оценка ${rating} из ${max}`}>
      {Array.from({ length: max }, (_, i) => (
        <SpriteIcon key={i} name={i < rating ? 'star-filled' : 'star-empty'} />
      ))}
    </span>
  );
}
