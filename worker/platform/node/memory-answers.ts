import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An answer kept whole in memory, ready to be written to the socket again as 200: headers and
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

/** The path a request names, without its query, as the client sent it. */
export function requestPath(incoming: IncomingMessage): string {
  const target = incoming.url ?? '/';
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}

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

/**
 * A reading taken at most once per turn of the event loop: the requests that arrive together
 * share it. What it reads (another process's commit, the build swapped in) is then seen by the
 * requests of the next turn, a fraction of a millisecond later.
 */
export function oncePerTurn<T>(read: () => T): () => T {
  let value: T;
  let fresh = false;
  return () => {
    if (!fresh) {
      value = read();
      fresh = true;
      setImmediate(() => (fresh = false));
    }
    return value;
  };
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined | null, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Writes a kept answer straight to Node's response: no Request or Response object is made, which
 * is most of what a request costs once its answer is known. A matching If-None-Match gets 304.
 */
export function writeAnswer(incoming: IncomingMessage, outgoing: ServerResponse, answer: MemoryAnswer): void {
  if (answer.etag && etagMatches(incoming.headers['if-none-match'], answer.etag)) {
    const headers: string[] = [];
    for (let i = 0; i < answer.headers.length; i += 2) {
      if (answer.headers[i] !== 'content-length') headers.push(answer.headers[i]!, answer.headers[i + 1]!);
    }
    outgoing.writeHead(304, headers);
    outgoing.end();
    return;
  }
  outgoing.writeHead(200, answer.headers);
  if (incoming.method === 'HEAD') outgoing.end();
  else outgoing.end(answer.body);
}

/** A Response's headers as Node's writeHead takes them: names and values in one flat list. */
export function headerList(headers: Headers): string[] {
  const list: string[] = [];
  headers.forEach((value, name) => list.push(name, value));
  return list;
}
