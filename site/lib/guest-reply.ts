// The owner's one-tap replies to a guest in «Заявки»: the guest's own
// channel first, then the others, each a link that opens with the message where the channel
// takes one. SMS works on every phone, with no messenger at all.
import type { BookingChannel } from '../../schema/booking-options.ts';
import { guestMessage, type GuestMessageBooking, type GuestMessagePlace } from '../../schema/guest-message.ts';
import { guestPageUrl } from '../../schema/guest-page.ts';
import { telHref } from './tel.ts';
import { whatsappLink, whatsappNumber } from './whatsapp.ts';

export type ReplyWay = 'whatsapp' | 'sms' | 'telegram' | 'call';
export type ReplyLink = {
  way: ReplyWay;
  label: string;
  href: string;
  /** The way the guest asked to be answered. */
  chosen: boolean;
  /** The link cannot carry the text (Telegram by phone number, a call): the owner pastes or says it. */
  carriesText: boolean;
};

const LABELS: Record<ReplyWay, string> = { whatsapp: 'WhatsApp', sms: 'SMS', telegram: 'Telegram', call: 'Позвонить' };

/** Which way answers the channel the guest picked; MAX has no link by phone number, so SMS. */
const WAY_OF: Record<BookingChannel, ReplyWay> = {
  whatsapp: 'whatsapp',
  telegram: 'telegram',
  max: 'sms',
  phone: 'call',
};

/** sms:+79281234567?body=… (the international form every phone's messages app reads). */
export function smsLink(phone: string, text: string): string {
  return `sms:+${whatsappNumber(phone)}?body=${encodeURIComponent(text)}`;
}

/** Every way to answer the guest with `text`, the guest's own first; none without a phone. */
export function guestReplyLinks(guest: { phone: string; channel: string }, text: string): ReplyLink[] {
  const digits = whatsappNumber(guest.phone);
  if (!digits) return [];
  const hrefs: Record<ReplyWay, string> = {
    whatsapp: whatsappLink(guest.phone, text),
    sms: smsLink(guest.phone, text),
    telegram: `https://t.me/+${digits}`,
    call: telHref(guest.phone),
  };
  const chosen = WAY_OF[guest.channel as BookingChannel] ?? 'whatsapp';
  // After a call, a text the guest can keep: SMS reaches every phone.
  const rest: ReplyWay[] =
    chosen === 'call' ? ['sms', 'whatsapp', 'telegram'] : ['whatsapp', 'sms', 'telegram', 'call'];
  const order: ReplyWay[] = [chosen, ...rest.filter((w) => w !== chosen)];
  return order.map((way) => ({
    way,
    label: LABELS[way],
    href: hrefs[way],
    chosen: way === chosen && guest.channel !== 'max',
    carriesText: way === 'whatsapp' || way === 'sms',
  }));
}

/**
 * The words of the reply, the request's news in plain facts; once confirmed, also the check-in
 * time, the address and the link to the guest's own page (`origin`: the site's address).
 */
export function guestReplyText(
  b: GuestMessageBooking & { guestToken?: string | null },
  place: GuestMessagePlace,
  origin: string,
): string {
  return guestMessage(
    b,
    place,
    b.status === 'confirmed' && b.guestToken ? guestPageUrl(origin, b.guestToken) : undefined,
  );
}
