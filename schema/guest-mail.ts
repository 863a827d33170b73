// The messages a guest gets by themselves (docs/features.md: the confirmation, the reminder before arrival,
// the review request after departure), filled from the owner's templates («Настройки» → «Письма
// гостям»). The server e-mails them. Plain functions, light enough for the panel in the browser.
import type { IsoDate } from './dates.ts';
import { guestPageUrl, renderTemplate, reviewUrl, type MessageKind, type MessageSettings } from './guest-page.ts';

/** What a message tells of a booking. `guestToken` makes the link to the guest's own page. */
export type GuestStay = { name: string; cabinName: string; checkIn: IsoDate; checkOut: IsoDate; guestToken: string };

/**
 * One of the messages, its placeholders filled; `origin` is the site's public address
 * (https://kaspiy.ru). `{ссылка}` is the guest's page, in the review request its review form.
 */
export function guestMail(
  kind: MessageKind,
  messages: MessageSettings,
  stay: GuestStay,
  origin: string,
): { subject: string; text: string } {
  const link = kind === 'review' ? reviewUrl(origin, stay.guestToken) : guestPageUrl(origin, stay.guestToken);
  return renderTemplate(messages[kind], {
    name: stay.name,
    cabinName: stay.cabinName,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    link,
  });
}
