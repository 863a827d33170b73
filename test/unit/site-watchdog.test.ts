import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watchServing } from '../../scripts/lib/site-watchdog.ts';

type Mode = 'answers' | 'hangs' | 'fails';

/** A real HTTP server on 127.0.0.1 that answers 200, never answers, or answers 503. */
async function site(port = 0) {
  let mode: Mode = 'answers';
  const server = http.createServer((_req, res) => {
    if (mode === 'hangs') return;
    res.writeHead(mode === 'answers' ? 200 : 503).end(JSON.stringify({ contentVersion: 7 }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/build-info`,
    port: (server.address() as AddressInfo).port,
    set: (next: Mode) => {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Short enough for a test, long enough that a loaded machine's slow answer is not a failure.
const FAST = { everyMs: 50, timeoutMs: 1000, downMs: 1500 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the local site is started again when it stops answering', () => {
  it('should call for a restart once the site has answered nothing for the set time, not while it answers', async () => {
    const s = await site();
    cleanups.push(s.close);
    let downs = 0;
    cleanups.push(watchServing(s.url, () => downs++, FAST).stop);
    await sleep(400);
    expect(downs).toBe(0);

    // Takes the connection and never answers, as a runtime started again under wrangler dev did.
    s.set('hangs');
    await sleep(500);
    expect(downs).toBe(0);
    await expect.poll(() => downs, { timeout: 8000 }).toBe(1);
    // Still not answering: the site being started again is given its time, no second call.
    await sleep(600);
    expect(downs).toBe(1);

    // Answering again, then errors only: a second call.
    // (a check still waiting on the hung answer ends at its timeout first)
    s.set('answers');
    await sleep(1500);
    expect(downs).toBe(1);
    s.set('fails');
    await expect.poll(() => downs, { timeout: 8000 }).toBe(2);
  });

  it('should call for a restart when the address refuses connections', async () => {
    const s = await site();
    let downs = 0;
    cleanups.push(watchServing(s.url, () => downs++, FAST).stop);
    await sleep(200);
    await s.close();
    await expect.poll(() => downs, { timeout: 8000 }).toBe(1);
  });

  it('should never call for a restart of a site that has not yet answered', async () => {
    const s = await site();
    s.set('hangs');
    cleanups.push(s.close);
    let downs = 0;
    cleanups.push(watchServing(s.url, () => downs++, FAST).stop);
    await sleep(2000);
    expect(downs).toBe(0);
  });

  it('should hand each answer it reads to the caller, and only the answers', async () => {
    const s = await site();
    cleanups.push(s.close);
    const seen: unknown[] = [];
    cleanups.push(watchServing(s.url, () => {}, { ...FAST, onAnswer: (body) => seen.push(body) }).stop);
    await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThan(1);
    expect(seen[0]).toEqual({ contentVersion: 7 });
    s.set('fails');
    await sleep(300);
    const count = seen.length;
    await sleep(300);
    expect(seen.length).toBe(count);
  });
});
