import { now } from '../lib/clock.ts';
import { readDataStamp } from '../queries/data-stamp.ts';
import { publicReadsChangeAt } from '../queries/public-reads.ts';
import type { DatabasePort } from './ports.ts';
import { clocked, etagMatches, headerList, mayKeep, memoryAnswers, PUBLIC_API_READS, stillTrueAt, type ClockedAnswer } from './kept-answers.ts';

/** An isolate has 128 MB; the public reads of even 1,500 cabins take a few hundred KB. */
const MEMORY = { maxBytes: 8 * 1024 * 1024, maxEntryBytes: 512 * 1024 };

/**
 * The Worker's memory of public reads, one per isolate. A kept answer is given again while the
 * data stamp (one row that a trigger renews on every write, whoever makes it: this isolate,
 * another, the cron, `wrangler d1 execute`) is the one it was made under, and the clock has not
 * reached the next moment it changes free dates (a payment hold running out, the day turning in
 * Moscow). So a repeated read costs one small D1 query instead of up to seven, and no Hono,
 * drizzle or JSON work. Anything else goes to the app untouched.
 */
export function publicReadMemory() {
  const memory = memoryAnswers<ClockedAnswer>(MEMORY);

  return async function answer(
    req: Request,
    env: { DB: DatabasePort },
    waitUntil: (work: Promise<unknown>) => void,
    app: () => Response | Promise<Response>,
  ): Promise<Response> {
    if (req.method !== 'GET' || req.headers.has('authorization') || !PUBLIC_API_READS.test(new URL(req.url).pathname)) return app();
    // The whole address is the key: its scheme and host decide the HSTS header.
    const key = req.url;
    const stamp = await readDataStamp(env).catch(() => null);
    if (stamp === null) return app();
    const kept = memory.get(key);
    if (kept) {
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
    const res = await app();
    if (!mayKeep(res)) return res;
    const body = new Uint8Array(await res.arrayBuffer());
    const madeAt = now();
    // The stamp was read before the app read its data: a write in between makes the answer newer
    // than its stamp, never older, and the next read sees another stamp. When the clock changes
    // the answer is one more query, so it is asked after the visitor has the answer.
    waitUntil(
      publicReadsChangeAt(env, madeAt).then(
        (changesAt) => memory.set(key, { headers: headerList(res.headers), body, etag: res.headers.get('etag'), stamp, ...clocked(madeAt, changesAt) }),
        () => {},
      ),
    );
    return new Response(body, { status: 200, statusText: res.statusText, headers: res.headers });
  };
}
