// Review previews: 120 characters on review cards, 150 on the home page.

export const ELLIPSIS = '...';

export interface Truncated {
  /** The text to show: whole, or cut with «...» appended. */
  text: string;
  /** True when something was cut off, i.e. «Читать полностью» should show. */
  truncated: boolean;
}

/**
 * The text cut to `max` characters (UTF-16 units, as maxlength and the validators count them)
 * plus «...» when it is longer. Trailing whitespace is ignored, the cut never splits a
 * surrogate pair (an emoji), and spaces before the ellipsis are trimmed.
 */
export function truncate(text: string, max: number): Truncated {
  const whole = text.trimEnd();
  if (whole.length <= max) return { text: whole, truncated: false };
  let end = Math.max(0, Math.floor(max));
  const code = whole.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1; // a high surrogate would be orphaned
  return { text: whole.slice(0, end).trimEnd() + ELLIPSIS, truncated: true };
}
