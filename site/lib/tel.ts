// A phone number as a tel: link, on its own: the booking card's channels need only this, and the
// site's settings module (site.ts) would bring the panel's defaults and their validation with it.

/**
 * A tel: link: «+7 (928) 555-12-34» → «tel:+79285551234»; a Russian «8 …» number gets +7.
 */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return '';
  if (phone.trim().startsWith('+')) return `tel:+${digits}`;
  if (digits.length === 11 && (digits.startsWith('8') || digits.startsWith('7'))) return `tel:+7${digits.slice(1)}`;
  return `tel:${digits}`;
}
