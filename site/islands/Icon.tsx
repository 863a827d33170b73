/**
 * An inline SVG icon in an island or the panel, decorative unless it gets a label. `svg` is one of
 * the icon exports of components/icons.ts or icons-base.ts (iconClose, …): importing them one by one
 * keeps the other icons out of the bundle (the panel's login screen draws three of them).
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
