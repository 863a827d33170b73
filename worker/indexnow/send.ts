// The lists of changed addresses, sent to the search engine's IndexNow endpoint by the schedule.
import { INDEXNOW_DEFAULT_URL } from '../../schema/indexnow.ts';
import type { OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { messageOf, outboxRetryMs, triedTooLong } from '../notify/owner.ts';
import { claim, markFailed } from '../queries/outbox.ts';
import { markIndexNowSent } from '../queries/indexnow.ts';
import { dueMessages } from '../queries/outbox.ts';
import { ensureIndexNowKey, indexNowSite } from './site.ts';

/** How long one try holds a list. */
const LEASE_MS = 60_000;
/** Lists one run sends at most where outbound requests are not counted (the Node server). */
const BATCH = 5;

/** What came of one try: sent, to be tried again later, or refused for good (the reason for the owner). */
type Outcome = { sent: true } | { sent: false; retry: boolean; reason: string };

/**
 * Sends the lists whose try is due, one request each: 200 and 202 are taken; 429, 5xx and a lost
 * connection are tried again with the outbox's pauses (given up after 3 days, as every message);
 * any other refusal is final, and its reason in Russian stays on the row for «Продвижение».
 * `limit`: the run's share of a Worker's outbound requests.
 */
export async function drainIndexNow(env: Bindings, opts: { limit?: number } = {}): Promise<{ sent: number }> {
  const due = await dueMessages(env, Math.min(BATCH, opts.limit ?? BATCH), 'indexnow');
  let sent = 0;
  for (const row of due) {
    if (!(await claim(env, row.id, LEASE_MS))) continue;
    const outcome = await sendList(env, row);
    if (outcome.sent) {
      await markIndexNowSent(env, row.id, row.text.split('\n').length);
      sent++;
      continue;
    }
    const giveUp = !outcome.retry || triedTooLong(row);
    // The reason names the key's address: it stays on the row for the owner, not in the log.
    console.error(`IndexNow: list ${row.id} not taken (try ${row.attempts + 1})${giveUp ? ', given up' : ''}`);
    await markFailed(
      env,
      row.id,
      outcome.reason,
      giveUp ? { giveUp: true } : { retryAt: now() + outboxRetryMs(row.attempts + 1) },
    );
  }
  return { sent };
}

async function sendList(env: Bindings, row: OutboxRow): Promise<Outcome> {
  const site = indexNowSite(env);
  if (!site.on) return { sent: false, retry: false, reason: `IndexNow выключен: ${site.why}` };
  const urlList = row.text.split('\n').filter(Boolean);
  const key = await ensureIndexNowKey(env);
  const keyLocation = `${site.origin}/${key}.txt`;
  let res: Response;
  let said: string;
  try {
    res = await fetch(env.INDEXNOW_URL || INDEXNOW_DEFAULT_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ host: site.host, key, keyLocation, urlList }),
      signal: AbortSignal.timeout(15_000),
    });
    said = await res.text();
  } catch (err) {
    return {
      sent: false,
      retry: true,
      reason: `нет связи с сервером IndexNow — отправим позже сами (${messageOf(err)}).`,
    };
  }
  if (res.status === 200 || res.status === 202) return { sent: true };
  const message = engineMessage(said);
  const theirs = message ? ` Ответ поисковика: «${message}».` : '';
  const reason = (text: string) => `${res.status}: ${text}${theirs}`;
  if (res.status === 429)
    return { sent: false, retry: true, reason: reason('слишком много запросов — отправим позже сами.') };
  if (res.status >= 500)
    return { sent: false, retry: true, reason: reason('сервер IndexNow не ответил — отправим позже сами.') };
  if (res.status === 403)
    return {
      sent: false,
      retry: false,
      reason: reason(
        `ключ не подтверждён — сайт не отдаёт файл ключа по адресу ${keyLocation}. Откройте этот адрес: должна показаться строка ключа. Если нет, проверьте, что SITE_URL — адрес этого сайта, и опубликуйте сайт снова.`,
      ),
    };
  if (res.status === 422)
    return {
      sent: false,
      retry: false,
      reason: reason(
        `адреса не относятся к сайту ${site.host} или ключ не подходит — проверьте, что SITE_URL — адрес этого сайта.`,
      ),
    };
  if (res.status === 400)
    return { sent: false, retry: false, reason: reason('запрос не принят (неверный формат) — сообщите разработчику.') };
  return { sent: false, retry: false, reason: reason('запрос не принят — сообщите разработчику.') };
}

/** The search engine's own words, when it gave any: a JSON `message`, or a short plain text. */
function engineMessage(body: string): string {
  try {
    const m = (JSON.parse(body) as { message?: unknown }).message;
    if (typeof m === 'string') return m.trim().slice(0, 200);
  } catch {}
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= 200 ? text : '';
}
