import type { IncomingMessage } from 'node:http';
import { now } from '../../lib/clock.ts';
import {
  clocked,
  headerList,
  mayKeep,
  memoryAnswers,
  PUBLIC_API_READS,
  stillTrueAt,
  type ClockedAnswer,
  type MemoryAnswer,
} from '../kept-answers.ts';
import { requestPath } from './memory-answers.ts';
import { readOnChange } from './read-on-change.ts';
import { chooseEncoding, liveBuildStamp } from './static-site.ts';

/** The public API reads, and the search page: the build's shell filled with the same search. */
const isPublicRead = (path: string) => PUBLIC_API_READS.test(path) || path === '/search';
const APP_MEMORY = { maxBytes: 16 * 1024 * 1024, maxEntryBytes: 512 * 1024 };

/**
 * Keeps the app's answers to public reads in memory, each stamped with the database's change
 * stamp and the live build (the search page is the build's shell filled in), so the next visitor
 * asking the same gets it without Hono, drizzle or zlib running again. Any write changes the
 * stamp: this server's own at once, another process's and a new build from the next request on
 * (read-on-change.ts says how, and where a moment later).
 */
export function appMemory(opts: {
  db: { ownWrites(): number; othersCommits(): number };
  /** The folder of the database file, where another process's commit shows. */
  dbDir: string;
  siteDir: string;
  trustedProxy: boolean;
  changesAt: (ms: number) => Promise<number>;
}) {
  /** When each answer was made, and when it stops being true with no change of data (the app's clock). */
  const memory = memoryAnswers<ClockedAnswer>(APP_MEMORY);
  // This server's own writes are read every time (they may come between two requests of a turn).
  const othersAndBuild = readOnChange(
    () => `${opts.db.othersCommits()}|${liveBuildStamp(opts.siteDir)}`,
    [opts.dbDir, opts.siteDir],
  );
  /** Null when it cannot be read (the database busy): then nothing is kept or given. */
  const stampNow = (): string | null => {
    try {
      return `${opts.db.ownWrites()}|${othersAndBuild()}`;
    } catch {
      return null;
    }
  };

  /** What the answer depends on in the request: the address as the visitor typed it, the encoding. */
  const keyOf = (incoming: IncomingMessage): string | undefined => {
    if (incoming.method !== 'GET' || incoming.headers.authorization || !isPublicRead(requestPath(incoming)))
      return undefined;
    const h = incoming.headers;
    // The host and, behind a trusted proxy, its forwarded scheme decide the HSTS header.
    const proxy = opts.trustedProxy ? `${h['x-forwarded-proto'] ?? ''} ${h['x-forwarded-host'] ?? ''}` : '';
    return `${incoming.url}\n${chooseEncoding(h['accept-encoding']) ?? ''}\n${h.host ?? ''}\n${proxy}`;
  };

  return {
    /** Stops watching the folders (the server closes). */
    close: () => othersAndBuild.close(),
    fromMemory(incoming: IncomingMessage): MemoryAnswer | undefined {
      const key = keyOf(incoming);
      const answer = key === undefined ? undefined : memory.get(key);
      if (!answer) return undefined;
      if (stillTrueAt(answer, now()) && answer.stamp === stampNow()) return answer;
      // Stale: dropped, so the memory holds only answers that can still be given.
      memory.drop(key!);
      return undefined;
    },
    /**
     * Call before the app answers: for a public read, its key and the stamp of what the app is
     * about to read; null for anything else (nothing to keep, nothing read).
     */
    begin(incoming: IncomingMessage): { key: string; stamp: string } | null {
      const key = keyOf(incoming);
      const stamp = key === undefined ? null : stampNow();
      return stamp === null ? null : { key: key!, stamp };
    },
    /** Keeps a 200 answer to a public read begun above (its body read once here) and gives it on. */
    async keep(begun: { key: string; stamp: string } | null, res: Response): Promise<Response> {
      if (!begun || !mayKeep(res)) return res;
      const body = new Uint8Array(await res.arrayBuffer());
      const headers = headerList(res.headers);
      if (!res.headers.has('content-length')) headers.push('content-length', String(body.length));
      const madeAt = now();
      const clock = clocked(madeAt, await opts.changesAt(madeAt).catch(() => madeAt));
      memory.set(begun.key, { headers, body, etag: res.headers.get('etag'), stamp: begun.stamp, ...clock });
      return new Response(body, { status: 200, statusText: res.statusText, headers: res.headers });
    },
  };
}
