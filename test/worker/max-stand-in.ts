// The MAX stand-in (stand-ins/max-api.ts) that the projects' global setup starts, as the worker's
// tests reach it: the updates a user's «Начать» or words make, the webhook subscription, and what
// the bot said to a user.
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import type { MaxSubscription, RecordedRequest } from '../../stand-ins/max-api.ts';

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

/**
 * MAX posting an update to the webhook it was given, with its secret header, through the file's
 * `call` to the app; `forge` sends it to another path or with another header (null: none).
 */
export const deliverer =
  (
    call: (
      method: string,
      path: string,
      opts: { rawBody: string; headers: Record<string, string> },
    ) => Promise<Response>,
  ) =>
  async (token: string, update: Update, forge: { path?: string; header?: string | null } = {}) => {
    const hook = await subscriptionOf(token);
    expect(hook, 'the webhook should be subscribed').not.toBeNull();
    const path = forge.path ?? new URL(hook!.url).pathname;
    const header = forge.header === undefined ? hook!.secret! : forge.header;
    return call('POST', path, {
      rawBody: JSON.stringify(update),
      headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'x-max-bot-api-secret': header }) },
    });
  };
