import { ICONS, type IconName } from '../../components/icons.ts';

/** The site's icons in React: decorative unless given a label. */
export function Icon({ name, label, className }: { name: IconName; label?: string; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true, focusable: false })}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon's own paths, from the bundled sprite, never a visitor's text
      dangerouslySetInnerHTML={{ __html: ICONS[name] }}
    />
  );
}
