import { describe, expect, it } from 'vitest';
import { settingsUpdateSchema } from '../../schema/settings.ts';
import { channelLink, offeredChannels, type ChannelSettings } from '../../site/lib/channels.ts';

const base: ChannelSettings = {
  phone: '+7 (928) 555-12-34',
  telegramUsername: 'kaspiy_dom',
  maxLink: 'https://max.ru/u/abc123',
  bookingChannels: ['whatsapp', 'telegram', 'max', 'phone'],
};

describe('the ways to reach the owner', () => {
  it('should offer the chosen channels that can work, in order, and WhatsApp when none can', () => {
    expect(offeredChannels(base).map((c) => c.label)).toEqual(['WhatsApp', 'Telegram', 'MAX', 'Звонок']);
    expect(
      offeredChannels({ ...base, telegramUsername: '', bookingChannels: ['telegram', 'phone'] }).map((c) => c.id),
    ).toEqual(['phone']);
    expect(
      offeredChannels({ ...base, telegramUsername: '', maxLink: '', bookingChannels: ['telegram', 'max'] }).map(
        (c) => c.id,
      ),
    ).toEqual(['whatsapp']);
  });

  it('should carry the same message to WhatsApp and Telegram, and call the phone', () => {
    const message = 'Здравствуйте!\nЗаявка №7';
    expect(channelLink('whatsapp', base, message)).toBe('https://wa.me/79285551234?text=Здравствуйте!%0AЗаявка%20№7');
    expect(channelLink('telegram', base, message)).toBe(`https://t.me/kaspiy_dom?text=${encodeURIComponent(message)}`);
    expect(channelLink('max', base, message)).toBe('https://max.ru/u/abc123');
    expect(channelLink('phone', base, message)).toBe('tel:+79285551234');
  });

  it('should take a Telegram username as people paste it, and refuse what is not one', () => {
    for (const pasted of [
      '@kaspiy_dom',
      'kaspiy_dom',
      't.me/kaspiy_dom',
      'https://t.me/kaspiy_dom/',
      ' https://telegram.me/kaspiy_dom ',
    ]) {
      expect(settingsUpdateSchema.parse({ telegramUsername: pasted }).telegramUsername).toBe('kaspiy_dom');
    }
    for (const bad of ['kas', 'каспий', 'kaspiy dom', '1kaspiy', 'https://evil.example/kaspiy']) {
      expect(settingsUpdateSchema.safeParse({ telegramUsername: bad }).success).toBe(false);
    }
    expect(settingsUpdateSchema.safeParse({ maxLink: 'https://max.ru/u/abc' }).success).toBe(true);
    for (const bad of [
      'http://max.ru/u/abc',
      'https://max.ru/',
      'https://evil.example/max.ru',
      'javascript:alert(1)',
    ]) {
      expect(settingsUpdateSchema.safeParse({ maxLink: bad }).success).toBe(false);
    }
    expect(settingsUpdateSchema.safeParse({ bookingChannels: [] }).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({ bookingChannels: ['whatsapp', 'whatsapp'] }).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({ bookingChannels: ['viber'] }).success).toBe(false);
  });
});
