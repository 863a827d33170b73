import { request } from 'node:http';

/**
 * How the control is given a route's answer (bench/floor): the bytes our app hands to the
 * runtime's serving layer, which then does to them what it does to ours. Under `wrangler dev` the
 * worker's answer is uncompressed and the dev server compresses it for each browser request, so
 * the control gets it uncompressed; the self-hosted server sends answers compressed ahead, so its
 * control gets them as sent. Either way with the answer's own headers (the security headers, the
 * cache policy, the Vary), which the client reads as surely as the body: the control then sends
 * what our server sends, and the ratio is the cost of making it (from 2026-11-27; before, the
 * control sent the body with two headers of its own).
 */
export type ControlAnswer = 'uncompressed' | 'as-sent';

/** Headers that belong to the connection or the framing, which each server writes for itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The raw bytes and headers of one answer of ours, as asked (no decoding on the way). */
function rawAnswer(url: string, acceptEncoding: string): Promise<{ body: Buffer; headers: [string, string][] }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (!OWN_HEADERS.has(name)) headers.push([name, res.rawHeaders[i + 1]!]);
        }
        resolve({ body: Buffer.concat(chunks), headers });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Gives the control, at `path`, the answer our server gives there; the bench then loads that path on both. */
export async function giveControl(opts: {
  ours: string;
  control: string;
  path: string;
  how: ControlAnswer;
  browserEncoding: string;
}): Promise<void> {
  const answer = await rawAnswer(
    `${opts.ours}${opts.path}`,
    opts.how === 'as-sent' ? opts.browserEncoding : 'identity',
  );
  // Only the self-hosted control is given compressed bytes (bench/floor/node-server.ts).
  const res = await fetch(`${opts.control}${opts.path}`, {
    method: 'PUT',
    headers: { 'x-answer-headers': JSON.stringify(answer.headers) },
    body: new Uint8Array(answer.body),
  });
  if (res.status !== 204) throw new Error(`the control did not take the answer of ${opts.path}: ${res.status}`);
}
