import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmAstro } from '../../scripts/lib/warm-astro.ts';
import { errorTail } from '../../scripts/rebuild-service.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { signIn, startServer, tempDir } from './test-server.ts';

// The rebuild service's Astro, kept loaded between builds (scripts/lib/warm-astro.ts), with the
// real `astro build` against a real Node server: each build shows the content of its own time,
// and a failed or stopped build says why and leaves no process behind.

const PASSWORD = 'warm-astro-password-1';
const dataDir = tempDir('warm-astro');
let server: NodeServer;

beforeAll(async () => {
  server = await startServer({
    dataDir: dataDir(),
    adminPassword: PASSWORD,
    shutdownGraceMs: 500,
  });
});
afterAll(async () => {
  await server?.close();
});

const envFor = (apiUrl: string) => ({ NODE_ENV: 'production', API_URL: apiUrl, SITE_URL: apiUrl });
const opts = { apiUrl: '', outDir: '', quiet: true };
const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function setHeroTitle(heroTitle: string) {
  const headers = { 'content-type': 'application/json', origin: server.url };
  const cookie = await signIn(server.url, PASSWORD, { origin: server.url });
  const res = await fetch(`${server.url}/api/settings`, {
    method: 'PUT',
    headers: { ...headers, cookie },
    body: JSON.stringify({ heroTitle }),
  });
  expect(res.status).toBe(200);
}

describe('Astro kept loaded between rebuilds', () => {
  it('should build each time the content as it is then, in the same process, which goes when idle', async () => {
    // Kept whatever memory a build leaves it with (going past it is the next test's): a cold first
    // build sometimes leaves it just over the limit, and the process rightly went.
    const warm = warmAstro({ idleMs: 1000, maxRssMb: Infinity });
    const out = path.join(dataDir(), 'out');
    try {
      await setHeroTitle('Первый заголовок');
      await warm.render(out, envFor(server.url), opts);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('Первый заголовок');
      const pid = warm.pid();
      expect(pid).not.toBeNull();

      // The same process builds again, and reads the content anew (it once kept the first build's).
      await setHeroTitle('Второй заголовок');
      await warm.render(out, envFor(server.url), opts);
      const html = await readFile(path.join(out, 'index.html'), 'utf8');
      expect(html).toContain('Второй заголовок');
      expect(html).not.toContain('Первый заголовок');
      expect(warm.pid()).toBe(pid);

      // Idle, it goes (and its memory with it).
      await expect.poll(() => gone(pid!), { timeout: 5000 }).toBe(true);
      expect(warm.pid()).toBeNull();
    } finally {
      warm.close();
    }
  }, 90_000);

  it('should end the process after a build that leaves it holding more memory than allowed, and have a new one loaded for the next edit', async () => {
    // Every build process holds more than 1 MB: it goes as soon as its build is done.
    const warm = warmAstro({ maxRssMb: 1, idleMs: 4000 });
    const out = path.join(dataDir(), 'out-memory');
    try {
      await setHeroTitle('Заголовок памяти');
      const building = warm.render(out, envFor(server.url), opts);
      await expect.poll(() => warm.pid(), { timeout: 5000 }).not.toBeNull();
      const pid = warm.pid()!;
      await building;
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('Заголовок памяти');
      await expect.poll(() => gone(pid), { timeout: 5000 }).toBe(true);

      // Its successor is already loading Astro, and builds the next edit.
      const next = warm.pid();
      expect(next).not.toBeNull();
      expect(next).not.toBe(pid);
      await setHeroTitle('Следующая правка');
      const building2 = warm.render(out, envFor(server.url), opts);
      expect(warm.pid()).toBe(next);
      await building2;
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('Следующая правка');

      // With no edit after it, the new one goes too.
      const third = warm.pid()!;
      expect(third).not.toBe(next);
      await expect.poll(() => gone(third), { timeout: 10_000 }).toBe(true);
      expect(warm.pid()).toBeNull();
    } finally {
      warm.close();
    }
  }, 120_000);

  it('should end a failed build with its cause and leave no process behind', async () => {
    const warm = warmAstro();
    // Nothing listens on port 9: the pages cannot read the content.
    const err = (await warm
      .render(path.join(dataDir(), 'failed'), envFor('http://127.0.0.1:9'), opts)
      .catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/^astro build failed\n/);
    expect(errorTail(err.message)).toMatch(/fetch failed|ECONNREFUSED/);
    expect(warm.pid()).toBeNull();
  }, 60_000);

  it('should stop a build when asked (the server is stopping) and end its process', async () => {
    const warm = warmAstro();
    const stopping = new AbortController();
    const build = warm.render(path.join(dataDir(), 'stopped'), envFor(server.url), {
      ...opts,
      signal: stopping.signal,
    });
    await new Promise((r) => setTimeout(r, 300));
    const pid = warm.pid()!;
    expect(pid).not.toBeNull();
    stopping.abort(new Error('server stopping'));
    await expect(build).rejects.toThrow('server stopping');
    await expect.poll(() => gone(pid), { timeout: 5000 }).toBe(true);
  }, 60_000);
});
