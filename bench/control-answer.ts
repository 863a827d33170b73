import { request } from 'node:http';

/**
 * How the control is given a route's answer (bench/floor): the bytes our app hands to the
 * runtime's serving layer, which then does to them what it does to ours. Under `wrangler dev` the
 * worker's answer is uncompressed and the dev server compresses it for each browser request, so
 * the control gets it uncompressed; the self-hosted server sends answers compressed ahead, so its
 * control gets them as sent.
 */
export type ControlAnswer = 'uncompressed' | 'as-sent';

/** The raw bytes and type of one answer of ours, as asked (no decoding on the way). */
function rawAnswer(url: string, acceptEncoding: string): Promise<{ body: Buffer; type: string; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
        resolve({ body: Buffer.concat(chunks), type: res.headers['content-type'] ?? 'application/octet-stream', encoding: res.headers['content-encoding'] });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Gives the control, at `path`, the answer our server gives there; the bench then loads that path on both. */
export async function giveControl(opts: { ours: string; control: string; path: string; how: ControlAnswer; browserEncoding: string }): Promise<void> {
  const answer = await rawAnswer(`${opts.ours}${opts.path}`, opts.how === 'as-sent' ? opts.browserEncoding : 'identity');
  // Only the self-hosted control is given compressed bytes (bench/floor/node-server.ts).
  const headers: Record<string, string> = { 'content-type': answer.type };
  if (answer.encoding) headers['x-content-encoding'] = answer.encoding;
  const res = await fetch(`${opts.control}${opts.path}`, { method: 'PUT', headers, body: new Uint8Array(answer.body) });
  if (res.status !== 204) throw new Error(`the control did not take the answer of ${opts.path}: ${res.status}`);
}
