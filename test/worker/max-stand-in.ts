// The MAX stand-in (stand-ins/max-api.ts) that the projects' global setup starts, as the worker's
// tests reach it: the updates a user's «Начать» or words make, the webhook subscription, and what
// the bot said to a user.
import { env } from 'cloudflare:test';
import type { MaxSubscription, RecordedRequest } from '../../stand-ins/max-api.ts';
import { webhookDeliverer } from './helpers.ts';

export const maxApi = env.MAX_API_URL as string;

/** The stand-in's answer to a request of a test (its `/_stand-in/…` controls). */
export const standIn = async <T>(path: string, body?: unknown): Promise<T> =>
  (await (
    await fetch(`${maxApi}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json()) as T;

export type Update = Record<string, unknown>;
/** A user's «Начать» by a link with `payload` (none: the bot opened without a link). */
export const started = async (token: string, userId: number, payload?: string) =>
  (await standIn<{ update: Update }>('/_stand-in/start', { token, payload, userId, chatId: -userId })).update;
/** A user's text to the bot. */
export const wrote = async (token: string, userId: number, text: string) =>
  (await standIn<{ update: Update }>('/_stand-in/message', { token, userId, text })).update;
export const subscriptionOf = (token: string) =>
  standIn<MaxSubscription | null>(`/_stand-in/subscription?token=${encodeURIComponent(token)}`);
export const requestsWith = async (token: string) =>
  (await standIn<RecordedRequest[]>('/_stand-in/requests')).filter((r) => r.authorization === token);
/** What the bot said to one MAX user, in order (what MAX took: not a message it refused). */
export const saidTo = async (token: string, userId: number) =>
  (await requestsWith(token))
    .filter((r) => r.method === 'POST' && r.path === `/messages?user_id=${userId}` && r.status === 200)
    .map((r) => r.body?.text);

/** MAX posting an update to the webhook it was subscribed to, through the file's `call` (webhookDeliverer). */
export const deliverer = (call: Parameters<typeof webhookDeliverer>[0]) =>
  webhookDeliverer(
    call,
    async (token) => {
      const hook = await subscriptionOf(token);
      return hook && { url: hook.url, secret: hook.secret ?? '' };
    },
    'x-max-bot-api-secret',
  );
