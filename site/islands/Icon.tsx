import { ICONS, type IconName } from '../components/icons.ts';

/** An inline SVG icon in an island; decorative unless it gets a label. */
export function Icon({ name, label, className }: { name: IconName; label?: string; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      dangerouslySetInnerHTML={{ __html: ICONS[name] }}
    />
  );
}

/** Five stars, `rating` of them filled. */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="stars" role="img" aria-label={`Оценка ${rating} из 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Icon key={n} name={n <= rating ? 'star-filled' : 'star-empty'} />
      ))}
    </span>
  );
}
