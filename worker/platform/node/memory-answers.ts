import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagMatches, type MemoryAnswer } from '../kept-answers.ts';

/** The path a request names, without its query, as the client sent it. */
export function requestPath(incoming: IncomingMessage): string {
  const target = incoming.url ?? '/';
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
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
