// Answers kept whole in memory, shared by both platforms' entries: the self-hosted server keeps
// site files and public reads (worker/platform/node/), the Worker keeps public reads per isolate
// (worker/platform/public-read-memory.ts).

/**
 * The app's public reads that every visitor asks alike: the catalogue, a cabin, its free dates,
 * prices, approved reviews, public settings, search. Nothing signed in, nothing that writes.
 */
export const PUBLIC_API_READS =
  /^\/api\/(?:cabins(?:\/\d+(?:\/availability)?)?|search|prices|reviews\/approved|settings)$/;

/**
 * The longest a kept public read stands with the data unchanged. Free dates also move with the
 * clock, and those moments are known (publicReadsChangeAt: a payment hold running out, the day
 * turning in Moscow); this bounds anything else that reads the clock to what browsers are told
 * already (max-age=60 on free dates and search).
 */
export const PUBLIC_READ_MAX_AGE_MS = 60_000;

/** A public read's answer by the app's clock: when it was made, and when the clock alone changes it. */
export type ClockedAnswer = { madeAt: number; expiresAt: number };

/** The clock's side of a kept public read made at `madeAt`; `changesAt` is publicReadsChangeAt's. */
export function clocked(madeAt: number, changesAt: number): ClockedAnswer {
  return { madeAt, expiresAt: Math.min(madeAt + PUBLIC_READ_MAX_AGE_MS, changesAt) };
}

/** Whether the clock still allows a kept public read at `at` (a clock set back counts as changed). */
export function stillTrueAt(answer: ClockedAnswer, at: number): boolean {
  return at >= answer.madeAt && at < answer.expiresAt;
}

/** Whether the app's answer is one every visitor gets alike: a 200 with no cookie, not private. */
export function mayKeep(res: Response): boolean {
  return (
    res.status === 200 && !res.headers.has('set-cookie') && !/\bprivate\b/.test(res.headers.get('cache-control') ?? '')
  );
}

/**
 * An answer kept whole in memory, ready to be given again as 200: headers and
 * the body exactly as sent (compressed when it was). `stamp` says what it was made from (the
 * built site, the database); the store's owner drops it when that changed.
 */
export type MemoryAnswer = {
  /** Names and values in one flat list, as Node's writeHead takes them. */
  headers: string[];
  body: Uint8Array;
  etag: string | null;
  stamp: string;
};

/**
 * Answers by key, oldest dropped first once `maxBytes` of bodies are held. No answer larger
 * than `maxEntryBytes` is kept (a big photo is read from disk each time, as before).
 */
export function memoryAnswers<Extra extends object = object>(opts: { maxBytes: number; maxEntryBytes: number }) {
  const answers = new Map<string, MemoryAnswer & Extra>();
  let bytes = 0;
  const drop = (key: string) => {
    const old = answers.get(key);
    if (!old) return;
    answers.delete(key);
    bytes -= old.body.length;
  };
  return {
    get: (key: string) => answers.get(key),
    set(key: string, answer: MemoryAnswer & Extra) {
      drop(key);
      if (answer.body.length > opts.maxEntryBytes) return;
      answers.set(key, answer);
      bytes += answer.body.length;
      for (const oldest of answers.keys()) {
        if (bytes <= opts.maxBytes) break;
        drop(oldest);
      }
    },
    drop,
  };
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined | null, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** A Response's headers as Node's writeHead takes them: names and values in one flat list. */
export function headerList(headers: Headers): string[] {
  const list: string[] = [];
  headers.forEach((value, name) => list.push(name, value));
  return list;
}
