import { z } from 'zod';
import {
  TELEGRAM_API_DEFAULT,
  TELEGRAM_TEXT_LIMIT,
  telegramMeSchema,
  telegramUpdateSchema,
} from '../../schema/telegram.ts';

/**
 * A small client of Telegram's Bot API on plain fetch, the same on Workers and on Node, for the
 * guests' bot. The token is part of the path (the Bot API takes it nowhere else), so an error
 * never carries the URL: only the method's name and Telegram's description.
 */

type TelegramEnv = { TELEGRAM_API_URL?: string };

/** Telegram refused or failed a call; `status` is its HTTP status, 0 when it did not answer at all. */
export class TelegramApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'TelegramApiError';
    this.status = status;
  }
  /** The token is wrong or revoked (Telegram answers 401, or 404 for one it cannot even read). */
  get tokenRejected() {
    return this.status === 401 || this.status === 404;
  }
  /** The guest blocked the bot or the chat is gone: trying again cannot help. */
  get chatGone() {
    return this.status === 403;
  }
}

const REQUEST_TIMEOUT_MS = 10_000;
const envelope = z.looseObject({ ok: z.boolean(), result: z.unknown().optional(), description: z.string().optional() });

async function call<S extends z.ZodType>(
  env: TelegramEnv,
  token: string,
  method: string,
  schema: S,
  body: Record<string, unknown> = {},
  timeoutMs = REQUEST_TIMEOUT_MS,
  /** Ends the call early (the self-hosted server stopping during a long poll). */
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  const base = (env.TELEGRAM_API_URL || TELEGRAM_API_DEFAULT).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new TelegramApiError(
      0,
      `Telegram ${method} did not answer: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const text = await res.text();
  let json: z.infer<typeof envelope> | undefined;
  try {
    json = envelope.parse(JSON.parse(text));
  } catch {
    json = undefined;
  }
  if (!res.ok || !json?.ok)
    throw new TelegramApiError(
      res.ok ? 502 : res.status,
      `Telegram ${method} answered ${res.status}: ${(json?.description ?? text).slice(0, 200)}`,
    );
  const parsed = schema.safeParse(json.result);
  if (!parsed.success) throw new TelegramApiError(502, `Telegram ${method} answered in an unexpected shape`);
  return parsed.data;
}

/** getMe: the bot the token belongs to (its name and the username of its t.me link). */
export const getTelegramMe = (env: TelegramEnv, token: string) => call(env, token, 'getMe', telegramMeSchema);

/**
 * setWebhook: Telegram posts every update to `url` with `secret` in the
 * X-Telegram-Bot-Api-Secret-Token header; only messages are asked for.
 */
export const setTelegramWebhook = (env: TelegramEnv, token: string, url: string, secret: string) =>
  call(env, token, 'setWebhook', z.unknown(), { url, secret_token: secret, allowed_updates: ['message'] });

/** deleteWebhook: updates wait for getUpdates instead (Telegram refuses getUpdates while a webhook is set). */
export const deleteTelegramWebhook = (env: TelegramEnv, token: string) =>
  call(env, token, 'deleteWebhook', z.unknown(), { drop_pending_updates: false });

/**
 * getUpdates: what is there from `offset` on (which also confirms the ones before it), waiting up
 * to `waitS` seconds for the first one when there is none yet (long polling; 0: what is there now).
 */
export const getTelegramUpdates = (env: TelegramEnv, token: string, offset?: number, waitS = 0, signal?: AbortSignal) =>
  call(
    env,
    token,
    'getUpdates',
    z.array(telegramUpdateSchema),
    { ...(offset === undefined ? {} : { offset }), limit: 100, timeout: waitS, allowed_updates: ['message'] },
    REQUEST_TIMEOUT_MS + waitS * 1000,
    signal,
  );

const ellipsis = '…';
/** sendMessage to a chat; text past Telegram's limit is cut. */
export async function sendTelegramMessage(
  env: TelegramEnv,
  token: string,
  chatId: string | number,
  text: string,
): Promise<void> {
  const body =
    text.length > TELEGRAM_TEXT_LIMIT ? text.slice(0, TELEGRAM_TEXT_LIMIT - ellipsis.length) + ellipsis : text;
  await call(env, token, 'sendMessage', z.unknown(), {
    chat_id: chatId,
    text: body,
    link_preview_options: { is_disabled: true },
  });
}
