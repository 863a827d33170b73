import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP_AFTER_MS, createRebuilder } from '../../scripts/rebuild-service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A rebuilder whose build only counts, and says which requests it saw (their versions). */
function counting(settleMs: number, buildMs = 0) {
  let version = 0;
  const built: number[] = [];
  const rebuilder = createRebuilder({
    apiUrl: 'http://127.0.0.1:1',
    outDir: '/nowhere',
    retryDelaysMs: [],
    settleMs,
    build: async () => {
      // The build reads the content as it is when it starts.
      const seen = version;
      await sleep(buildMs);
      built.push(seen);
      return { contentVersion: seen, ms: buildMs };
    },
  });
  const edit = () => {
    version += 1;
    return rebuilder.request();
  };
  return { rebuilder, edit, built };
}

afterEach(() => vi.restoreAllMocks());

describe('the rebuilder when edits come in a burst', () => {
  it('should make one build of the last edit from ten edits 50 ms apart', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { rebuilder, edit, built } = counting(200);
    for (let i = 0; i < 10; i++) {
      void edit();
      await sleep(50);
    }
    await rebuilder.idle();
    expect(built).toEqual([10]);
    expect(rebuilder.status).toMatchObject({ state: 'idle', builtVersion: 10 });
  });

  it('should say it is building while it waits for the burst to end', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { rebuilder, edit } = counting(300);
    const done = edit();
    expect(rebuilder.status.state).toBe('building');
    await done;
    expect(rebuilder.status.state).toBe('idle');
  });

  it('should make one more build for edits that come while a build runs, with the last of them', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { rebuilder, edit, built } = counting(50, 300);
    void edit();
    await sleep(150); // the first build runs
    for (let i = 0; i < 5; i++) {
      void edit();
      await sleep(20);
    }
    await rebuilder.idle();
    expect(built).toEqual([1, 6]);
  });

  it('should not wait for an endless burst: a build starts within two seconds of the first edit', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { rebuilder, edit, built } = counting(300);
    const started = Date.now();
    let firstBuildAt = 0;
    let edits = 0;
    while (Date.now() - started < 3_000) {
      void edit();
      edits += 1;
      if (built.length > 0 && !firstBuildAt) firstBuildAt = Date.now();
      await sleep(100);
    }
    await rebuilder.idle();
    expect(firstBuildAt - started).toBeGreaterThan(0);
    expect(firstBuildAt - started).toBeLessThan(2_500);
    // The site still ends with the last edit.
    expect(built.at(-1)).toBe(edits);
  });
});

describe('the rebuilder when a request to build never arrives', () => {
  it('should build content left ahead of the site by itself, once it has stayed ahead a while', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { rebuilder, edit, built } = counting(0);
    await edit();
    expect(built).toEqual([1]);

    // The owner's next save bumped the version, but its request was lost with the runtime.
    const t0 = Date.now();
    rebuilder.catchUp(2, t0);
    rebuilder.catchUp(2, t0 + CATCH_UP_AFTER_MS - 1);
    expect(rebuilder.status.state).toBe('idle');
    rebuilder.catchUp(2, t0 + CATCH_UP_AFTER_MS);
    expect(rebuilder.status.state).toBe('building');
    await rebuilder.idle();
    // (counting's own version was not bumped for the lost edit: the build reads it as it is)
    expect(built).toEqual([1, 1]);
  });

  it('should leave alone a site that is current, a build under way and a build that failed', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rebuilder, edit, built } = counting(0, 300);
    const t0 = Date.now();
    // Before the first build there is nothing to catch up with.
    rebuilder.catchUp(5, t0);
    rebuilder.catchUp(5, t0 + CATCH_UP_AFTER_MS);
    expect(built).toEqual([]);
    expect(rebuilder.status.state).toBe('idle');

    const first = edit();
    rebuilder.catchUp(5, t0);
    rebuilder.catchUp(5, t0 + CATCH_UP_AFTER_MS);
    await first;
    expect(built).toEqual([1]);
    rebuilder.catchUp(1, t0);
    rebuilder.catchUp(1, t0 + CATCH_UP_AFTER_MS);
    expect(rebuilder.status.state).toBe('idle');

    let failing = true;
    const broken = createRebuilder({
      apiUrl: 'http://127.0.0.1:1',
      outDir: '/nowhere',
      retryDelaysMs: [],
      settleMs: 0,
      build: async () => {
        if (failing) throw new Error('disk full');
        return { contentVersion: 3, ms: 0 };
      },
    });
    failing = false;
    await broken.request();
    failing = true;
    await broken.request();
    expect(broken.status.state).toBe('failed');
    broken.catchUp(4, t0);
    broken.catchUp(4, t0 + CATCH_UP_AFTER_MS);
    expect(broken.status.state).toBe('failed');
  });
});
