/**
 * An icon given as its markup, one of the icon exports of components/icons.ts or icons-base.ts:
 * what the login screen draws imports them one by one, so the panel's other icons stay out of the
 * code a signed-out visitor loads (about 1.4 KB gzipped).
 */
export function SvgIcon({ svg, label, className }: { svg: string; label?: string; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true, focusable: false })}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon's own paths, from the bundled sprite, never a visitor's text
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
