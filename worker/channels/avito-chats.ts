// Avito's chats in «Сообщения» (docs/api.md «Conversations», docs/operations.md «Avito's chats»):
// with the keys the Avito channel already has, the guests' messages about the owner's listings are
// read (by Avito's webhook where the site has an https address, and by the schedule every minute
// as well, so a webhook lost on the way is still read), each kept once by Avito's message id in the
// chat's thread, with the cabin whose listing it is and Avito's booking of the same guest. The
// owner's answers go back through the outbox; opening a chat marks it read on Avito too.
//
// Avito gives the Messenger API only on some plans: a 403 on its calls is kept in Avito's own words
// and shown in «Сообщения» and «Площадки»; the calendar's exchange goes on regardless. Nothing here
// runs inside a visitor's request.
import { channelBackoffMs } from '../../schema/channels.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { takesGuestOffAvito } from '../../schema/reply-templates.ts';
import type { OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { forLog } from '../lib/for-log.ts';
import { sha256Hex } from '../lib/password.ts';
import { GUEST_LEASE_MS } from '../notify/guest.ts';
import { autoAnswerDue } from '../notify/guest-wrote.ts';
import { avitoMessageNotice } from '../notify/notices.ts';
import { messageOf, notifyOwner, triedTooLong } from '../notify/owner.ts';
import {
  avitoBookingOfChat,
  avitoChatOfThread,
  cabinOfListing,
  chatsFailed,
  chatsState,
  chatsWorked,
  keepAvitoChat,
  keptChats,
  keptMessageIds,
  linkedListings,
  queueAvitoReply,
  setHook,
  type IncomingMessage,
  type KeptChat,
} from '../queries/avito-chats.ts';
import { listCabinNames } from '../queries/cabins.ts';
import { setAvitoAccountError } from '../queries/channels.ts';
import { markFailed, markSent } from '../queries/outbox.ts';
import { randomHex } from '../queries/guest-bots.ts';
import {
  AvitoError,
  chatMessages,
  getChat,
  listChats,
  markChatRead,
  messageText,
  sendChatMessage,
  subscribeWebhook,
  type AvitoChat,
  type AvitoHook,
  type AvitoMessage,
} from './avito-api.ts';
import { connected, type Connected } from './avito-sync.ts';

/** Chats not changed for this long are not read (the first reading of an account brings no old history). */
const HISTORY_MS = 30 * 24 * 60 * 60_000;
/** A guest's message older than this when read is kept, but alerts nobody and gets no automatic answer. */
const FRESH_MS = 60 * 60_000;
/** How long a refusal of the Messenger API (a plan) waits before the chats are tried again. */
const REFUSED_RETRY_MS = 60 * 60_000;
/** Each run reads the list (one request) and keeps one for a new token or the webhook's subscription. */
const RUN_OVERHEAD = 2;
/** What a chat's new messages may send at once: the owner's alert by up to three channels and the automatic answer. */
const AFTER_KEPT_REQUESTS = 4;
/** The outbox's subject of the owner's answer and of the automatic answer (the chat gets only the text). */
const REPLY_SUBJECT = 'Ответ владельца';
const AUTO_ANSWER_SUBJECT = 'Автоответ';

/**
 * The public address Avito posts new messages to, or undefined where the server has none: Avito
 * posts only to HTTPS, so a self-hosted server without a certificate in front reads by the schedule.
 */
export const avitoHookUrl = (env: Pick<Bindings, 'SITE_URL'>, secret: string) => {
  const site = env.SITE_URL?.trim().replace(/\/+$/, '');
  return site?.startsWith('https://') ? `${site}/api/hooks/avito/${secret}` : undefined;
};

/** The guest's message as kept, or undefined for what is not a guest's words (ours, Avito's own, deleted). */
function incoming(c: Connected, m: AvitoMessage): IncomingMessage | undefined {
  if (m.direction !== 'in' || m.authorId === c.account.userId || m.authorId === 0 || m.type === 'system')
    return undefined;
  if (!m.text) return undefined;
  return { id: m.id, text: m.text, at: m.created * 1000 };
}

/** The chat's last message is a guest's (neither ours nor Avito's own). */
const guestWroteLast = (c: Connected, ch: AvitoChat) =>
  ch.lastMessage?.direction === 'in' &&
  ch.lastMessage.type !== 'system' &&
  ch.lastMessage.type !== 'deleted' &&
  ch.lastMessage.authorId !== 0 &&
  ch.lastMessage.authorId !== c.account.userId;

/** What the chat's facts say: its cabin by the listing, and Avito's booking of the same guest there. */
async function chatFacts(env: Bindings, chat: Pick<AvitoChat, 'id' | 'itemId' | 'guestName'>, updated: number | null) {
  const cabinId = await cabinOfListing(env, chat.itemId);
  const guestName = chat.guestName ?? '';
  const platformBookingId = await avitoBookingOfChat(env, cabinId, guestName, todayInMoscow(now()));
  return { chatId: chat.id, cabinId, guestName, platformBookingId, updated } satisfies KeptChat;
}

/**
 * After a guest's new messages are kept: the owner is alerted (as for a Telegram message) and,
 * outside the owner's hours, the chat gets the automatic answer, once per chat and such hours.
 * Only for messages written lately: a chat read after a long outage does not alert about old ones.
 */
async function afterKept(env: Bindings, c: Connected, chat: KeptChat, fresh: IncomingMessage[]): Promise<boolean> {
  const lately = fresh.filter((m) => m.at >= now() - FRESH_MS);
  if (lately.length === 0) return false;
  try {
    const cabinName = chat.cabinId === null ? undefined : (await listCabinNames(env)).get(chat.cabinId);
    await notifyOwner(
      env,
      avitoMessageNotice(
        { guestName: chat.guestName, ...(cabinName ? { cabinName } : {}) },
        lately.map((m) => m.text).join('\n'),
        env.SITE_URL,
      ),
    );
  } catch (err) {
    console.error('The owner’s alert of an Avito message failed:', messageOf(err));
  }
  await autoAnswerAvito(env, c, chat.chatId);
  return true;
}

/**
 * The automatic answer in an Avito chat outside the owner's hours (the same words and switch as in
 * Telegram, «Сообщения» → «Автоответ»): Avito counts it as the chat's first answer. One with a link
 * is not sent: Avito does not allow taking a guest elsewhere. Never throws.
 */
async function autoAnswerAvito(env: Bindings, c: Connected, chatId: string): Promise<void> {
  try {
    const due = await autoAnswerDue(env, undefined);
    if (!due) return;
    if (takesGuestOffAvito(due.body)) {
      console.log('The automatic answer has a link or a contact: not sent to an Avito chat');
      return;
    }
    const kept = await queueAvitoReply(
      env,
      { chatId, subject: AUTO_ANSWER_SUBJECT, text: due.text, event: `auto-answer-${due.period}`, kind: 'auto-answer' },
      GUEST_LEASE_MS,
    );
    if (!kept?.fresh) return;
    console.log('The automatic answer queued for an Avito chat');
    await deliverAvito(env, c, {
      id: kept.id,
      attempts: 0,
      createdAt: kept.createdAt,
      recipient: chatId,
      text: due.text,
    });
  } catch (err) {
    console.error('The automatic answer of an Avito chat could not be kept:', messageOf(err));
  }
}

/** A failure of the chats as a whole: Avito's refusal kept in its words, else the cause and the next try. */
async function chatsFailure(env: Bindings, err: unknown, failures: number): Promise<string> {
  if (err instanceof AvitoError && err.kind === 'messenger') {
    await chatsFailed(env, { refused: err.said ?? err.reason, retryAt: now() + REFUSED_RETRY_MS });
    return err.reason;
  }
  const reason = err instanceof AvitoError ? err.reason : 'Не удалось прочитать чаты Авито: повторим позже';
  if (!(err instanceof AvitoError)) console.error('Reading Avito’s chats failed', forLog(err));
  const retryAfter = err instanceof AvitoError ? err.retryAfterMs : undefined;
  await chatsFailed(env, { error: reason, retryAt: now() + channelBackoffMs(failures + 1, retryAfter) });
  if (err instanceof AvitoError && (err.kind === 'revoked' || err.kind === 'keys'))
    await setAvitoAccountError(env, reason);
  return reason;
}

/**
 * Asks Avito to post new messages to this site, where it has an https address and Avito does not
 * post there yet (a new account, a new address). Its secret path is made once and kept.
 */
async function ensureHook(env: Bindings, c: Connected, state: { hookSecret: string | null; hookUrl: string | null }) {
  const secret = state.hookSecret ?? randomHex(24);
  const url = avitoHookUrl(env, secret);
  if (!url || url === state.hookUrl) return;
  if (!state.hookSecret) await setHook(env, { secret });
  await subscribeWebhook(c.account, c.store, url);
  await setHook(env, { url });
  console.log('Avito posts new chat messages to this site’s webhook');
}

export type ChatsRun = {
  /** Chats read this run (each one request). */
  read: number;
  /** Guests' messages kept this run. */
  kept: number;
  error?: string;
};

/**
 * The schedule's every minute: the account's chats changed since they were last read (one request
 * for the list, one a chat), their guests' new messages kept. `limit`: the requests this run may
 * make (a Worker's are counted); the chats that do not fit are read in the next minutes, the ones
 * changed last first. `now`: even while pausing after failures.
 */
export async function readAvitoChats(env: Bindings, opts: { limit?: number; now?: boolean } = {}): Promise<ChatsRun> {
  const c = await connected(env);
  if (!c) return { read: 0, kept: 0 };
  const state = await chatsState(env);
  if (!state) return { read: 0, kept: 0 };
  if (!opts.now && state.retryAt !== null && state.retryAt > now()) return { read: 0, kept: 0 };
  const budget = opts.limit ?? Number.POSITIVE_INFINITY;
  if (budget < RUN_OVERHEAD + 1) return { read: 0, kept: 0 };
  let read = 0;
  let kept = 0;
  try {
    await ensureHook(env, c, state);
    const since = (now() - HISTORY_MS) / 1000;
    const chats = (await listChats(c.account, c.store)).filter((ch) => ch.updated >= since);
    const guestsLast = chats.flatMap((ch) => (guestWroteLast(c, ch) ? [ch.lastMessage!.id] : []));
    const [known, listings, lastKept] = await Promise.all([
      keptChats(
        env,
        chats.map((ch) => ch.id),
      ),
      linkedListings(env),
      keptMessageIds(env, guestsLast),
    ]);
    for (const ch of chats) {
      const kept = known.get(ch.id);
      // A chat kept before its listing was linked to a cabin: its cabin now (no request to Avito).
      if (kept && kept.updated >= ch.updated && kept.cabinId === null && ch.itemId && listings.has(ch.itemId))
        await keepAvitoChat(env, await chatFacts(env, ch, null), []);
    }
    // Changed since last read; Avito's `updated` counts whole seconds, so a guest's last message not
    // kept yet also means the chat is read again (two messages in the second it was read).
    const changed = chats
      .filter(
        (ch) =>
          (known.get(ch.id)?.updated ?? -1) < ch.updated ||
          (guestWroteLast(c, ch) && !lastKept.has(ch.lastMessage!.id)),
      )
      .sort((a, b) => b.updated - a.updated);
    let spent = RUN_OVERHEAD;
    for (const chat of changed) {
      if (spent + 1 > budget) break;
      spent += 1;
      let messages: AvitoMessage[];
      try {
        messages = await chatMessages(c.account, c.store, chat.id);
      } catch (err) {
        // A chat deleted meanwhile is no failure of the chats.
        if (err instanceof AvitoError && err.kind === 'chat') continue;
        throw err;
      }
      read++;
      const fresh = messages
        .map((m) => incoming(c, m))
        .filter((m): m is IncomingMessage => m !== undefined && m.at >= since * 1000)
        .sort((a, b) => a.at - b.at);
      const facts = await chatFacts(env, chat, chat.updated);
      const stored = await keepAvitoChat(env, facts, fresh);
      kept += stored.fresh.length;
      if (stored.fresh.length > 0 && (await afterKept(env, c, facts, stored.fresh))) spent += AFTER_KEPT_REQUESTS;
    }
    if (state.refused !== null || state.error !== null || state.failures > 0) await chatsWorked(env);
    if (kept > 0) console.log(`Avito’s chats: ${kept} new message(s) of guests kept`);
    return { read, kept };
  } catch (err) {
    const error = await chatsFailure(env, err, state.failures);
    console.error(`Reading Avito’s chats failed: ${err instanceof Error ? err.message : String(err)}`);
    return { read, kept, error };
  }
}

/** Whether two secrets are the same, in a time that does not tell how much of one was guessed. */
async function sameSecret(given: string, kept: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(kept)]);
  return a === b;
}

/**
 * Avito's webhook: a path that is not this account's is 'unknown' (nothing read or changed); a
 * guest's new message is kept once, by Avito's id, before the answer; ours and Avito's own are
 * taken and left. `later` runs what need not hold Avito's request (the owner's alert, the automatic
 * answer, the guest's name read from the chat).
 */
export async function takeAvitoHook(
  env: Bindings,
  secret: string,
  /** Undefined: what Avito posted could not be read (400, once the path is known to be ours). */
  hook: AvitoHook | undefined,
  later: (label: string, task: Promise<unknown>) => unknown,
): Promise<'unknown' | 'bad' | 'taken'> {
  const c = await connected(env);
  const state = c ? await chatsState(env) : undefined;
  if (!c || !state?.hookSecret || !(await sameSecret(secret, state.hookSecret))) return 'unknown';
  if (!hook) return 'bad';
  const v = hook.payload.value;
  if (hook.payload.type !== 'message' || (v.chat_type && v.chat_type !== 'u2i')) return 'taken';
  const text = messageText(v.type, v.content);
  const message = incoming(c, {
    id: v.id,
    authorId: v.author_id,
    created: v.created,
    // Avito's webhook names no direction: a message the account's own user wrote is ours.
    direction: v.author_id === c.account.userId ? 'out' : 'in',
    type: v.type,
    text: text ?? '',
  });
  if (!message) return 'taken';
  const facts = await chatFacts(env, { id: v.chat_id, ...(v.item_id ? { itemId: v.item_id } : {}) }, null);
  const stored = await keepAvitoChat(env, facts, [message]);
  if (stored.fresh.length === 0) return 'taken';
  console.log('A guest wrote in an Avito chat: kept in its thread');
  later(
    'The owner’s alert of an Avito message',
    (async () => {
      // The webhook names neither the guest nor the chat's state: the chat is read for the name.
      const chat = await getChat(c.account, c.store, v.chat_id).catch((err) => {
        console.error('The Avito chat could not be read for the guest’s name:', messageOf(err));
        return undefined;
      });
      const named = chat ? await chatFacts(env, chat, null) : facts;
      if (chat) await keepAvitoChat(env, named, []);
      await afterKept(env, c, named, stored.fresh);
    })(),
  );
  return 'taken';
}

type HeldAvito = Pick<OutboxRow, 'id' | 'attempts' | 'createdAt' | 'text'> & { recipient: string };

/**
 * One try of a message to an Avito chat this sender holds: noted as sent, or as failed with the
 * next try after the outbox's backoff (Avito busy or down, 429 included). A refusal that trying
 * again cannot mend (the Messenger API not in the account's plan, a chat gone, keys revoked) gives
 * the message up with its cause in Russian.
 */
async function deliverAvito(env: Bindings, c: Connected, row: HeldAvito): Promise<boolean> {
  try {
    await sendChatMessage(c.account, c.store, row.recipient, row.text);
    await markSent(env, row.id);
    return true;
  } catch (err) {
    const reason = err instanceof AvitoError ? err.reason : messageOf(err);
    const giveUp = (err instanceof AvitoError && !err.retryable) || triedTooLong(row);
    console.error(
      `A message to an Avito chat failed (try ${row.attempts + 1})${giveUp ? ', given up' : ', kept for the schedule'}:`,
      messageOf(err),
    );
    if (err instanceof AvitoError && err.kind === 'messenger')
      await chatsFailed(env, { refused: err.said ?? err.reason, retryAt: now() + REFUSED_RETRY_MS });
    await markFailed(
      env,
      row.id,
      reason,
      giveUp ? { giveUp: true } : { retryAt: now() + channelBackoffMs(row.attempts + 1, retryAfter(err)) },
    );
    return false;
  }
}

const retryAfter = (err: unknown) => (err instanceof AvitoError ? err.retryAfterMs : undefined);

/** The drain's send of a due message to an Avito chat: given up when Avito is no longer connected. */
export async function sendAvitoRow(env: Bindings, row: OutboxRow): Promise<'sent' | 'failed' | 'given up'> {
  const c = await connected(env);
  if (!c || !row.recipient) {
    console.log('A message to an Avito chat given up: Avito is not connected');
    await markFailed(env, row.id, 'Авито не подключено: подключите его в «Площадках»', { giveUp: true });
    return 'given up';
  }
  return (await deliverAvito(env, c, { ...row, recipient: row.recipient })) ? 'sent' : 'failed';
}

/**
 * The owner's answer in an Avito chat's thread: kept in the outbox (once per `event`), then tried at
 * once by `later`. Undefined when the thread is no Avito chat or Avito is not connected.
 */
export async function queueAvitoAnswer(
  env: Bindings,
  threadId: number,
  text: string,
  event: string,
  later: (label: string, task: Promise<unknown>) => unknown,
): Promise<{ id: number } | 'not connected' | undefined> {
  const chatId = await avitoChatOfThread(env, threadId);
  if (!chatId) return undefined;
  const c = await connected(env);
  if (!c) return 'not connected';
  const kept = await queueAvitoReply(
    env,
    { chatId, subject: REPLY_SUBJECT, text, event, kind: 'reply' },
    GUEST_LEASE_MS,
  );
  if (!kept) return undefined;
  if (kept.fresh) {
    console.log('The owner’s answer queued for an Avito chat');
    later(
      'The owner’s answer in an Avito chat',
      deliverAvito(env, c, { id: kept.id, attempts: 0, createdAt: kept.createdAt, recipient: chatId, text }),
    );
  }
  return { id: kept.id };
}

/** The owner read an Avito chat's thread: the chat is marked read on Avito too (the guest sees it). */
export async function markAvitoThreadRead(env: Bindings, threadId: number): Promise<void> {
  const chatId = await avitoChatOfThread(env, threadId);
  if (!chatId) return;
  const c = await connected(env);
  if (!c) return;
  try {
    await markChatRead(c.account, c.store, chatId);
  } catch (err) {
    console.error('An Avito chat could not be marked read:', messageOf(err));
    if (err instanceof AvitoError && err.kind === 'messenger')
      await chatsFailed(env, { refused: err.said ?? err.reason, retryAt: now() + REFUSED_RETRY_MS });
  }
}
