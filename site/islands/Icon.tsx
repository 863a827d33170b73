import type { IconName } from '../components/icons.ts';
import { RATING_MAX } from '../../schema/constants.ts';

/**
 * An inline SVG icon in an island, decorative unless it gets a label. `svg` is one of the
 * icon exports of components/icons.ts (iconClose, …): importing them one by one keeps the
 * other icons out of the island's bundle.
 */
export function Icon({ svg, label, className }: { svg: string; label?: string; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon's own paths, from the bundled sprite, never a visitor's text
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

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
