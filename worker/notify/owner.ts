import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { messageForLog } from '../lib/for-log.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { enqueue, markFailed, markSent, stillHeld } from '../queries/outbox.ts';
import { sendMaxMessage } from './max-api.ts';

/** What the owner is told about: a new booking request or a new review. */
/** `key` names a kept notice for good (its outbox row), see outboxKey. */
export type OwnerNotice = { subject: string; text: string; key?: string };

/**
 * The name of an outbox row's message for every try of it (the mail API's idempotency key, the
 * e-mail's Message-ID): the site's host, the row's id and a digest of what it says to whom. The
 * digest keeps two messages apart that share an id, as after a restore from a backup, when the
 * ids of the lost hours are given again, so that one is never taken for the other.
 */
export async function outboxKey(
  env: Pick<Bindings, 'SITE_URL'>,
  id: number,
  message: { to?: string; subject: string; text: string },
): Promise<string> {
  let host = 'site';
  try {
    if (env.SITE_URL?.trim()) host = new URL(env.SITE_URL.trim()).host;
  } catch {}
  const said = new TextEncoder().encode(`${message.to ?? ''}\n${message.subject}\n${message.text}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', said));
  const hex = [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${host}/outbox/${id}/${hex}`;
}

/** Attempts per channel at once; a notice that still fails waits in the outbox for the schedule. */
export const NOTIFY_ATTEMPTS = 4;
/** Pause before the 2nd, 3rd, 4th attempt. */
const BACKOFF_MS = [1000, 4000, 15_000];
const TELEGRAM_API = 'https://api.telegram.org';
/** How long the first sender holds a message while it tries at once (its retries take ~20 s, each call up to 10 s). */
const FIRST_LEASE_MS = 2 * 60_000;
/** After this long unsent, a message is given up (the owner has long seen the panel by then). */
export const OUTBOX_GIVE_UP_MS = 3 * 24 * 60 * 60_000;

/** The pause before the schedule tries a message again after `attempts` failed tries: 1, 2, 4 … minutes, at most an hour. */
export const outboxRetryMs = (attempts: number) => Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 4));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A failure's reason for the log and the outbox: a failed query's parameters (an e-mail, a link) left out. */
export const messageOf = messageForLog;

/** Whether a kept message has waited long enough (OUTBOX_GIVE_UP_MS) to be given up at its next failure. */
export const triedTooLong = (row: { createdAt: number }) => now() - row.createdAt > OUTBOX_GIVE_UP_MS;

/** Keeps a failed try of a message the schedule sends: given up (`giveUp`), else tried again after the next pause. */
export const markTryFailed = (
  env: Pick<Bindings, 'DB'>,
  row: { id: number; attempts: number },
  err: unknown,
  giveUp: boolean,
) =>
  markFailed(
    env,
    row.id,
    messageOf(err),
    giveUp ? { giveUp: true } : { retryAt: now() + outboxRetryMs(row.attempts + 1) },
  );

/**
 * Tries a few times at once. Before each retry `mine` says whether the message is still this
 * sender's: a server that restarted meanwhile, or the schedule, may have taken it over.
 */
async function withRetries(
  channel: string,
  send: () => Promise<void>,
  backoffMs: readonly number[],
  mine: () => Promise<boolean>,
): Promise<{ ok: true } | { ok: false; error: string } | { ok: false; handedOver: true }> {
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && !(await mine().catch(() => false))) return { ok: false, handedOver: true };
    try {
      await send();
      return { ok: true };
    } catch (err) {
      const last = attempt === NOTIFY_ATTEMPTS;
      console.error(
        `Owner notification by ${channel} failed (attempt ${attempt} of ${NOTIFY_ATTEMPTS})${last ? ', kept in the outbox for the schedule' : ''}:`,
        messageOf(err),
      );
      if (last) return { ok: false, error: messageOf(err) };
      await sleep(backoffMs[attempt - 1] ?? backoffMs.at(-1) ?? 0);
    }
  }
}

/** A Telegram bot message: plain fetch to the Bot API, the same on Workers and on Node. */
async function sendTelegram(env: Bindings, notice: OwnerNotice): Promise<void> {
  const base = env.TELEGRAM_API_URL || TELEGRAM_API;
  const res = await fetch(`${base}/bot${env.TELEGRAM_BOT_TOKEN}/sendMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      chat_id: env.TELEGRAM_CHAT_ID,
      text: `${notice.subject}\n\n${notice.text}`,
      disable_web_page_preview: true,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`Bot API answered ${res.status}: ${body.slice(0, 200)}`);
}

export type Channel = 'telegram' | 'email' | 'max';
export type Sender = (notice: OwnerNotice) => Promise<void>;

/**
 * The owner's channels that are set now (Telegram: TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID;
 * e-mail: the MAILER port, from SMTP_URL or the mail API's MAIL_TO; MAX: the bot the owner
 * connected in «Настройки», see worker/routes/max-admin.ts), each with its sender.
 */
export async function ownerChannels(env: Bindings): Promise<Map<Channel, Sender>> {
  const out = new Map<Channel, Sender>();
  if (env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_CHAT_ID) out.set('telegram', (n) => sendTelegram(env, n));
  const mailer = env.MAILER;
  if (mailer && mailer.reachesOwner !== false) out.set('email', (n) => mailer.send(n));
  const max = await readMaxBot(env).catch(
    (err) => void console.error('Owner notification by MAX: the bot could not be read:', messageOf(err)),
  );
  if (max && max.userId !== null) {
    const userId = max.userId;
    out.set('max', (n) => sendMaxMessage(env, max.token, userId, `${n.subject}\n\n${n.text}`));
  }
  return out;
}

export const CHANNEL_NAMES: Record<Channel, string> = { telegram: 'Telegram', email: 'e-mail', max: 'MAX' };

/**
 * Tells the owner by every channel that is set. The message is first kept in the outbox (one row
 * per channel), then tried at once a few times; one that still fails stays there and the schedule
 * tries it again (drainOutbox), across restarts and outages of hours. Resolves when the tries at
 * once are done and never throws, so it can run in waitUntil after the visitor has the answer.
 */
export async function notifyOwner(
  env: Bindings,
  notice: OwnerNotice,
  opts: { backoffMs?: readonly number[] } = {},
): Promise<void> {
  const channels = await ownerChannels(env);
  if (channels.size === 0) return;
  const names = [...channels.keys()];
  // Without a database to keep it in, the message is still tried at once.
  const kept = await enqueue(env, names, notice, FIRST_LEASE_MS).catch((err) => {
    console.error('Owner notification could not be kept in the outbox; trying at once only:', messageOf(err));
    return null;
  });
  await tryOwnerNow(
    env,
    channels,
    { rows: names.map((channel, i) => ({ channel, id: kept?.ids[i] })), lease: kept?.lease },
    notice,
    opts.backoffMs,
  );
}

/** How long a transition's own messages are held while it tries them at once (see FIRST_LEASE_MS). */
export const OWNER_FIRST_LEASE_MS = FIRST_LEASE_MS;

/** A notice's rows in the outbox, one per channel, held by this sender until `lease` (none: not kept). */
export type KeptOwnerRows = { rows: { channel: Channel; id?: number }[]; lease?: number };

/**
 * Tries the owner's kept rows at once, a few times each, and notes each outcome; one that still
 * fails stays for the schedule. Never throws.
 */
export async function tryOwnerNow(
  env: Bindings,
  channels: Map<Channel, Sender>,
  kept: KeptOwnerRows,
  notice: OwnerNotice,
  backoffMs: readonly number[] = BACKOFF_MS,
): Promise<void> {
  await Promise.all(
    kept.rows.map(async ({ channel, id }) => {
      const send = channels.get(channel);
      if (!send) return;
      const mine = async () => (kept.lease !== undefined && id !== undefined ? stillHeld(env, id, kept.lease) : true);
      const named = id === undefined ? notice : { ...notice, key: await outboxKey(env, id, notice) };
      const result = await withRetries(CHANNEL_NAMES[channel], () => send(named), backoffMs, mine);
      if (id === undefined || 'handedOver' in result) return;
      await (result.ok
        ? markSent(env, id)
        : markFailed(env, id, result.error, { retryAt: now() + outboxRetryMs(NOTIFY_ATTEMPTS) })
      ).catch((err) => console.error('Outbox could not note a try:', messageOf(err)));
    }),
  );
}
