import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { readDataStamp } from '../queries/data-stamp.ts';
import { publicReadsChangeAt } from '../queries/public-reads.ts';
import {
  clocked,
  etagMatches,
  headerList,
  mayKeep,
  memoryAnswers,
  PUBLIC_API_READS,
  stillTrueAt,
  type ClockedAnswer,
} from './kept-answers.ts';

/** An isolate has 128 MB; the public reads of even 1,500 cabins take a few hundred KB. */
const MEMORY = { maxBytes: 8 * 1024 * 1024, maxEntryBytes: 512 * 1024 };

/**
 * How long an isolate trusts the data stamp it last read before asking D1 again. A D1 query is
 * the whole cost of a kept answer (and in production a round trip to the database's location),
 * so a busy isolate asks once a second instead of once per read. Only writes made elsewhere (another
 * isolate, the cron, `wrangler d1 execute`) wait for it: a visitor already holds free dates for
 * a minute (max-age=60), and every booking is checked against D1 when it is sent. A write through
 * this isolate, and a read that asks for it (`cache-control: no-cache`: the site's build), ask D1
 * at once.
 */
export const STAMP_TRUST_MS = 1000;

/** Public reads whose app answer reads the data stamp in its own batch (worker/queries/search-reads.ts). */
const STAMPED_IN_BATCH = /^\/api\/search$/;

type StampedEnv = Pick<Bindings, 'DB' | 'DATA_STAMP_SEEN'>;

/**
 * The Worker's memory of public reads, one per isolate. A kept answer is given again while the
 * data stamp (one row that a trigger renews on every write, whoever makes it: this isolate,
 * another, the cron, `wrangler d1 execute`) is the one it was made under, and the clock has not
 * reached the next moment it changes free dates (a payment hold running out, the day turning in
 * Moscow). So a repeated read costs at most one small D1 query instead of up to seven (none while
 * the stamp is trusted, STAMP_TRUST_MS), and no Hono, drizzle or JSON work. Anything else goes to
 * the app untouched.
 */
export function publicReadMemory() {
  const memory = memoryAnswers<ClockedAnswer>(MEMORY);
  // The stamp last read and when; `era` moves on with every request that may write, so a stamp
  // read that began before a write is not trusted after it.
  let trusted: { stamp: string; readAt: number } | null = null;
  let era = 0;
  const forgetStamp = () => {
    trusted = null;
    era += 1;
  };
  const currentStamp = async (req: Request, env: StampedEnv): Promise<string | null> => {
    const at = now();
    if (
      trusted &&
      !/\bno-cache\b/.test(req.headers.get('cache-control') ?? '') &&
      at >= trusted.readAt &&
      at < trusted.readAt + STAMP_TRUST_MS
    )
      return trusted.stamp;
    const began = era;
    const stamp = await readDataStamp(env).catch(() => null);
    if (era === began) trusted = stamp === null ? null : { stamp, readAt: at };
    return stamp;
  };

  async function answer<E extends StampedEnv>(
    req: Request,
    env: E,
    waitUntil: (work: Promise<unknown>) => void,
    app: (env: E) => Response | Promise<Response>,
  ): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (req.method !== 'GET' || req.headers.has('authorization') || !PUBLIC_API_READS.test(path)) {
      if ((req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/')) return app(env);
      // It may write (a form sent, the owner's edit, a payment's return checked): the next read
      // asks D1, whether this request is still running or done.
      forgetStamp();
      try {
        return await app(env);
      } finally {
        forgetStamp();
      }
    }
    // The whole address is the key: its scheme and host decide the HSTS header.
    const key = req.url;
    const kept = memory.get(key);
    const selfStamped = STAMPED_IN_BATCH.test(path);
    let stamp: string | null = null;
    // A search not kept goes straight to the app, whose one batch reads the stamp with its rows:
    // reading it here first was a second round trip to D1 before the search's own.
    if (kept || !selfStamped) {
      stamp = await currentStamp(req, env);
      if (stamp === null && !selfStamped) return app(env);
    }
    if (kept && stamp !== null) {
      if (kept.stamp === stamp && stillTrueAt(kept, now())) {
        const headers = new Headers();
        for (let i = 0; i < kept.headers.length; i += 2) headers.append(kept.headers[i]!, kept.headers[i + 1]!);
        if (kept.etag && etagMatches(req.headers.get('if-none-match'), kept.etag)) {
          headers.delete('content-length');
          return new Response(null, { status: 304, headers });
        }
        // Kept from an ArrayBuffer below, never a shared one.
        return new Response(kept.body as Uint8Array<ArrayBuffer>, { status: 200, headers });
      }
      memory.drop(key);
    }
    let res: Response;
    if (selfStamped) {
      // The answer is kept under the stamp its own batch read (one transaction with its rows),
      // which this isolate may then trust as one it read itself.
      const seen: { stamp: string | null } = { stamp: null };
      const began = era;
      const at = now();
      res = await app({ ...env, DATA_STAMP_SEEN: (s: string | null) => void (seen.stamp = s) });
      stamp = seen.stamp;
      if (era === began) trusted = stamp === null ? null : { stamp, readAt: at };
    } else res = await app(env);
    if (stamp === null || !mayKeep(res)) return res;
    const keptUnder = stamp;
    const body = new Uint8Array(await res.arrayBuffer());
    const madeAt = now();
    // The stamp was read before the app read its data (or with them, in one batch): a write in
    // between makes the answer newer than its stamp, never older, and the next read sees another
    // stamp. When the clock changes
    // the answer is one more query, so it is asked after the visitor has the answer.
    waitUntil(
      publicReadsChangeAt(env, madeAt).then(
        (changesAt) =>
          memory.set(key, {
            headers: headerList(res.headers),
            body,
            etag: res.headers.get('etag'),
            stamp: keptUnder,
            ...clocked(madeAt, changesAt),
          }),
        () => {},
      ),
    );
    return new Response(body, { status: 200, statusText: res.statusText, headers: res.headers });
  }

  /** The entry calls this after anything else it ran that may have written (the cron). */
  return Object.assign(answer, { forgetStamp });
}
