import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addToPool, fillFromPool } from '../../scripts/lib/image-pool.ts';

// The photos one site's build made, shared with the next site built on the machine.

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'фото пул-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const put = (cache: string, name: string, text: string) => {
  mkdirSync(path.join(cache, 'assets'), { recursive: true });
  writeFileSync(path.join(cache, 'assets', name), text);
};
const list = (cache: string) => readdirSync(path.join(cache, 'assets')).sort();

describe('the pool of photos the builds made', () => {
  it("should give a new site's cache every photo another build made, and keep what the site has", async () => {
    const pool = dir();
    const first = dir();
    put(first, 'sea_1BRH30.avif', 'avif');
    put(first, 'sea_1BRH30.avif.json', '{"expires":1}');
    expect(await addToPool(pool, first)).toBe(2);
    // Whole files only: no temporary name is left in the pool.
    expect(list(pool)).toEqual(['sea_1BRH30.avif', 'sea_1BRH30.avif.json']);

    const second = dir();
    put(second, 'sea_1BRH30.avif', 'its own');
    expect(await fillFromPool(pool, second)).toBe(1);
    expect(list(second)).toEqual(['sea_1BRH30.avif', 'sea_1BRH30.avif.json']);
    expect(readFileSync(path.join(second, 'assets', 'sea_1BRH30.avif'), 'utf8')).toBe('its own');

    // What a build adds that the pool has already is not written again.
    put(second, 'beach_Z1.webp', 'webp');
    expect(await addToPool(pool, second)).toBe(1);
    expect(readFileSync(path.join(pool, 'assets', 'sea_1BRH30.avif'), 'utf8')).toBe('avif');
  });

  it('should build as before from an empty or missing pool', async () => {
    const site = dir();
    expect(await fillFromPool(path.join(dir(), 'none'), site)).toBe(0);
    expect(await addToPool(path.join(dir(), 'new pool'), path.join(site, 'no cache'))).toBe(0);
  });
});
