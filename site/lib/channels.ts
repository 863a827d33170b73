// The ways a visitor can reach the owner: WhatsApp (the spec's), Telegram, MAX and a
// call. The owner chooses which the booking card offers («Контакты»); a channel is offered only
// when it can work (Telegram needs a username, MAX a link, WhatsApp and a call a phone).
import { BOOKING_CHANNEL_LABELS, type BookingChannel } from '../../schema/booking-options.ts';
import { telHref } from './tel.ts';
import { whatsappLink, whatsappNumber } from './whatsapp.ts';

export type ChannelSettings = {
  phone: string;
  telegramUsername: string;
  maxLink: string;
  bookingChannels: readonly BookingChannel[];
};
export type OfferedChannel = { id: BookingChannel; label: string };
/** What a link needs: where each channel reaches the owner. */
export type ChannelAddresses = Omit<ChannelSettings, 'bookingChannels'>;

const usable = (c: BookingChannel, s: ChannelSettings) =>
  c === 'telegram' ? s.telegramUsername !== '' : c === 'max' ? s.maxLink !== '' : whatsappNumber(s.phone) !== '';

/** The channels the owner chose that can work, in the owner's order; WhatsApp if none can. */
export function offeredChannels(s: ChannelSettings): OfferedChannel[] {
  const ids = s.bookingChannels.filter((c) => usable(c, s));
  return (ids.length ? ids : (['whatsapp'] as BookingChannel[])).map((id) => ({
    id,
    label: BOOKING_CHANNEL_LABELS[id],
  }));
}

/** A link that opens the channel, with the message where the channel takes one. */
export function channelLink(channel: BookingChannel, s: ChannelAddresses, message?: string): string {
  switch (channel) {
    case 'telegram':
      return `https://t.me/${s.telegramUsername}${message ? `?text=${encodeURIComponent(message)}` : ''}`;
    case 'max':
      // MAX links take no prefilled text: the visitor pastes or types it.
      return s.maxLink;
    case 'phone':
      return telHref(s.phone);
    default:
      return whatsappLink(s.phone, message);
  }
}
