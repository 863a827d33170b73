import { and, desc, eq, isNull } from 'drizzle-orm';
import { INDEXNOW_CHANNEL, INDEXNOW_MAX_URLS } from '../../schema/indexnow.ts';
import { indexnowState, outbox } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/** What the state row's `pages` holds: the site's address and its pages' digests, as last queued. */
export type SentPages = { origin: string; pages: Record<string, string> };

export async function readIndexNowState(
  env: DbEnv,
): Promise<{ manifest: string; pages: SentPages; sentAt: number | null; sentUrls: number | null } | null> {
  const row = await getDb(env).select().from(indexnowState).where(eq(indexnowState.id, 1)).get();
  if (!row) return null;
  let pages: SentPages = { origin: '', pages: {} };
  try {
    pages = JSON.parse(row.pages) as SentPages;
  } catch {}
  return { manifest: row.manifest, pages, sentAt: row.sentAt, sentUrls: row.sentUrls };
}

/**
 * In one batch, while the state is still the one read (`prev`, null when there was none): the
 * addresses to send, as outbox rows of at most INDEXNOW_MAX_URLS each, and the new state. Of any
 * number of runs that read the same state, exactly one writes; the others change nothing and
 * answer false (each statement carries the condition, and the rows go before the write it reads).
 */
export async function queueIndexNow(
  env: DbEnv,
  prev: string | null,
  next: { manifest: string; pages: SentPages },
  urls: string[],
): Promise<boolean> {
  const at = now();
  const still = "coalesce((SELECT manifest FROM indexnow_state WHERE id = 1), '') = ?";
  const rows = [];
  for (let i = 0; i < urls.length; i += INDEXNOW_MAX_URLS) {
    const list = urls.slice(i, i + INDEXNOW_MAX_URLS);
    rows.push(
      env.DB.prepare(
        `INSERT INTO outbox (channel, subject, text, attempts, next_attempt_at, created_at, event)
         SELECT ?, ?, ?, 0, ?, ?, ? WHERE ${still}`,
      ).bind(INDEXNOW_CHANNEL, `IndexNow: ${list.length}`, list.join('\n'), at, at, next.manifest, prev ?? ''),
    );
  }
  const write = env.DB.prepare(
    `INSERT INTO indexnow_state (id, manifest, pages) SELECT 1, ?, ? WHERE ${still}
     ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest, pages = excluded.pages`,
  ).bind(next.manifest, JSON.stringify(next.pages), prev ?? '');
  const results = await env.DB.batch([...rows, write]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/** A list the search engine took: the row sent, and the last send kept for «Продвижение». */
export async function markIndexNowSent(env: DbEnv, id: number, urls: number): Promise<void> {
  const at = now();
  await env.DB.batch([
    env.DB.prepare(
      'UPDATE outbox SET sent_at = ?, lease_until = NULL, last_error = NULL, attempts = attempts + 1 WHERE id = ?',
    ).bind(at, id),
    env.DB.prepare('UPDATE indexnow_state SET sent_at = ?, sent_urls = ? WHERE id = 1').bind(at, urls),
  ]);
}

/**
 * What «Продвижение» shows beside the last send: how many addresses wait, and the newest
 * refusal no later send made good (a given-up list, or one waiting to be tried again).
 */
export async function indexNowOutbox(env: DbEnv): Promise<{ pending: number; error: string | null }> {
  const db = getDb(env);
  const [waiting, recent] = await Promise.all([
    db
      .select({ text: outbox.text })
      .from(outbox)
      .where(and(eq(outbox.channel, INDEXNOW_CHANNEL), isNull(outbox.sentAt), isNull(outbox.givenUpAt))),
    db
      .select({ sentAt: outbox.sentAt, lastError: outbox.lastError })
      .from(outbox)
      .where(eq(outbox.channel, INDEXNOW_CHANNEL))
      .orderBy(desc(outbox.id))
      .limit(50),
  ]);
  const pending = waiting.reduce((n, r) => n + (r.text ? r.text.split('\n').length : 0), 0);
  let error: string | null = null;
  for (const row of recent) {
    if (row.sentAt !== null) break;
    if (row.lastError) {
      error = row.lastError;
      break;
    }
  }
  return { pending, error };
}
