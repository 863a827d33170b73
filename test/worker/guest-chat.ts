import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import type { TelegramMessage, TelegramWebhook } from '../../stand-ins/telegram-api.ts';
import { jsonOf, seedCabin, validBooking, type callWith } from './helpers.ts';

/**
 * A guest's Telegram chat with the owner's guests' bot, through the Telegram stand-in of the global
 * setup (stand-ins/telegram-api.ts): for the tests of «Сообщения», its templates and what follows
 * a guest's message. Each test file passes its `call` (its bindings name the stand-in).
 */
export function guestChats(telegramApi: string, call: ReturnType<typeof callWith>) {
  const newToken = () =>
    `${100_000_000 + Math.floor(Math.random() * 800_000_000)}:chat-${crypto.randomUUID().replaceAll('-', '')}`;
  let updates = 0;
  const nextUpdateId = () => 900_000 + ++updates * 7 + Math.floor(Math.random() * 5);
  let chats = 0;
  const newChat = () => 8_000_000_000 + ++chats * 13 + Math.floor(Math.random() * 11);

  const standIn = async <T>(path: string): Promise<T> => (await (await fetch(`${telegramApi}${path}`)).json()) as T;
  /** What the stand-in got for one chat, in order. */
  const saidTo = async (chat: number) =>
    (await standIn<TelegramMessage[]>('/_stand-in/messages'))
      .filter((m) => String(m.body.chat_id) === String(chat))
      .map((m) => m.body.text);
  const message = (updateId: number, chat: number, text: string) => ({
    update_id: updateId,
    message: { message_id: updateId, date: 1_790_000_000, chat: { id: chat, type: 'private' }, text },
  });

  /** Posts an update to the webhook Telegram was given, as Telegram does. */
  async function deliver(token: string, update: unknown) {
    const hook = await standIn<TelegramWebhook | null>(`/_stand-in/webhook?token=${encodeURIComponent(token)}`);
    expect(hook).not.toBeNull();
    return call('POST', new URL(hook!.url).pathname, {
      rawBody: JSON.stringify(update),
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook!.secret_token },
    });
  }

  /** The owner's bot connected, a guest's request whose chat is tied: what each test starts from. */
  async function guestWithChat(cookie: string, name = 'Мадина Гасанова') {
    const token = newToken();
    await jsonOf(await call('PUT', '/api/admin/messengers', { cookie, body: { telegram: { token } } }), 200);
    const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
    const { id } = await jsonOf<{ id: number }>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { name }) }),
      201,
    );
    const guestToken = (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
      .bind(id)
      .first<{ t: string }>())!.t;
    const { url } = await jsonOf<{ url: string }>(
      await call('POST', `/api/guest/${guestToken}/link/telegram`, { body: {} }),
      200,
    );
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${new URL(url).searchParams.get('start')}`));
    return { token, booking: id, cabin: cabin.id, guestToken, chat };
  }

  return { newToken, nextUpdateId, newChat, standIn, saidTo, message, deliver, guestWithChat };
}
