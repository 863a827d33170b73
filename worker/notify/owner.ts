import type { Bindings } from '../env.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { sendMaxMessage } from './max-api.ts';

/** What the owner is told about: a new booking request or a new review. */
export type OwnerNotice = { subject: string; text: string };

/** Attempts per channel; a notice that still fails is logged and dropped, never the request. */
export const NOTIFY_ATTEMPTS = 4;
/** Pause before the 2nd, 3rd, 4th attempt. */
const BACKOFF_MS = [1000, 4000, 15_000];
const TELEGRAM_API = 'https://api.telegram.org';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withRetries(channel: string, send: () => Promise<void>, backoffMs: readonly number[]): Promise<boolean> {
  for (let attempt = 1; attempt <= NOTIFY_ATTEMPTS; attempt++) {
    try {
      await send();
      return true;
    } catch (err) {
      const last = attempt === NOTIFY_ATTEMPTS;
      console.error(`Owner notification by ${channel} failed (attempt ${attempt} of ${NOTIFY_ATTEMPTS})${last ? ', giving up' : ''}:`, err instanceof Error ? err.message : err);
      if (last) return false;
      await sleep(backoffMs[attempt - 1] ?? backoffMs.at(-1) ?? 0);
    }
  }
  return false;
}

/** A Telegram bot message: plain fetch to the Bot API, the same on Workers and on Node. */
async function sendTelegram(env: Bindings, notice: OwnerNotice): Promise<void> {
  const base = env.TELEGRAM_API_URL || TELEGRAM_API;
  const res = await fetch(`${base}/bot${env.TELEGRAM_BOT_TOKEN}/sendMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: env.TELEGRAM_CHAT_ID, text: `${notice.subject}\n\n${notice.text}`, disable_web_page_preview: true }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`Bot API answered ${res.status}: ${body.slice(0, 200)}`);
}

/**
 * Tells the owner, by every channel that is configured (Telegram: TELEGRAM_BOT_TOKEN and
 * TELEGRAM_CHAT_ID; e-mail: the MAILER port, which the self-hosted server fills from SMTP_URL;
 * MAX: the bot the owner connected in «Настройки», see worker/routes/max-admin.ts).
 * Retries each channel a few times; resolves when done and never throws, so it can run in
 * waitUntil after the visitor already has the answer.
 */
export async function notifyOwner(env: Bindings, notice: OwnerNotice, opts: { backoffMs?: readonly number[] } = {}): Promise<void> {
  const backoff = opts.backoffMs ?? BACKOFF_MS;
  const tasks: Promise<boolean>[] = [];
  if (env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_CHAT_ID) tasks.push(withRetries('Telegram', () => sendTelegram(env, notice), backoff));
  const mailer = env.MAILER;
  if (mailer) tasks.push(withRetries('e-mail', () => mailer.send(notice), backoff));
  const max = await readMaxBot(env).catch((err) => void console.error('Owner notification by MAX: the bot could not be read:', err instanceof Error ? err.message : err));
  if (max && max.userId !== null) {
    const userId = max.userId;
    tasks.push(withRetries('MAX', () => sendMaxMessage(env, max.token, userId, `${notice.subject}\n\n${notice.text}`), backoff));
  }
  await Promise.all(tasks);
}
