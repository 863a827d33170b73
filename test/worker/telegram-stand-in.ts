// The guests' Telegram stand-in (stand-ins/telegram-api.ts) that the projects' global setup starts,
// as the worker's tests reach it: its address, what the bot said to a chat, the webhook it was
// given, and the updates and chats a test makes up.
import { env } from 'cloudflare:test';
import { inject } from 'vitest';
import type { TelegramMessage, TelegramWebhook } from '../../stand-ins/telegram-api.ts';
import { jsonOf, seedCabin, validBooking, webhookDeliverer } from './helpers.ts';

export const telegramApi = inject('telegramApiUrl');

/** The stand-in's answer to a request of a test (its `/_stand-in/…` controls). */
export const standIn = async <T>(path: string, init?: RequestInit): Promise<T> =>
  (await (await fetch(`${telegramApi}${path}`, init)).json()) as T;

/** The webhook setWebhook gave the stand-in for a token, or null. */
export const webhookOf = (token: string) =>
  standIn<TelegramWebhook | null>(`/_stand-in/webhook?token=${encodeURIComponent(token)}`);

/** What the bot said to one chat, in order. */
export const saidTo = async (chat: number) =>
  (await standIn<TelegramMessage[]>('/_stand-in/messages'))
    .filter((m) => String(m.body.chat_id) === String(chat))
    .map((m) => m.body.text);

/** A guest's text message as Telegram sends it in an update. */
export const message = (updateId: number, chat: number, text: string) => ({
  update_id: updateId,
  message: { message_id: updateId, date: 1_790_000_000, chat: { id: chat, type: 'private' }, text },
});

/**
 * Update ids and chats of one test file: the stand-in keeps one state for the whole run, so each
 * file starts its numbers from a base of its own, and a token carries the file's `secret`.
 */
export function madeUp(bases: { updates: number; chats: number }) {
  let updates = 0;
  let chats = 0;
  return {
    /** A token of this test alone, shaped like Telegram's: the stand-in keeps the whole run's state per token. */
    newToken: (secret: string) =>
      `${100_000_000 + Math.floor(Math.random() * 800_000_000)}:${secret}-${crypto.randomUUID().replaceAll('-', '')}`,
    nextUpdateId: () => bases.updates + ++updates * 7 + Math.floor(Math.random() * 5),
    newChat: () => bases.chats + ++chats * 13 + Math.floor(Math.random() * 11),
  };
}

/** Telegram posting an update to the webhook setWebhook gave it, through the file's `call` (webhookDeliverer). */
export const deliverer = (call: Parameters<typeof webhookDeliverer>[0]) =>
  webhookDeliverer(
    call,
    async (token) => {
      const hook = await webhookOf(token);
      return hook && { url: hook.url, secret: hook.secret_token };
    },
    'x-telegram-bot-api-secret-token',
  );

type Call = (method: string, path: string, opts?: { cookie?: string; body?: unknown }) => Promise<Response>;

/**
 * The owner's guests' bot connected and a guest's request whose chat is tied, through the file's
 * `call`: what a test of «Сообщения» starts from.
 */
export const guestWithChatVia =
  (call: Call & Parameters<typeof deliverer>[0], made: ReturnType<typeof madeUp>) =>
  async (cookie: string, name = 'Мадина Гасанова') => {
    const token = made.newToken('chat');
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
    const chat = made.newChat();
    await deliverer(call)(
      token,
      message(made.nextUpdateId(), chat, `/start ${new URL(url).searchParams.get('start')}`),
    );
    return { token, booking: id, cabin: cabin.id, guestToken, chat };
  };
