import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../scripts/lib/tools.ts';
import { E2E_ADMIN_PASSWORD } from './global-setup.ts';
import { listFiles } from '../../worker/platform/node/list-files.ts';
import { apiAt } from '../typed-api.ts';

/**
 * The built public site must give nothing away: not the rebuild hook, not a password, not
 * the names of the secrets, and not the secret admin path as a link. The e2e global setup
 * builds a fresh site from fresh demo data into this directory before any e2e test runs, so
 * the scan always has a real build to read; a missing or empty build fails the test.
 */
const baseUrl = inject('baseUrl');
const rebuildUrl = inject('rebuildUrl');
/** The build directory of this run, named as global-setup.ts names it for the run's port. */
const port = Number(new URL(baseUrl).port);
const DIST = path.join(ROOT, `node_modules/.cache/e2e-dist${port === 8790 ? '' : `-${port}`}`);

type BuiltFile = { rel: string; text: string };
let files: BuiltFile[] = [];
/** The admin paths to look for: the default, and the current one if a test has moved it. */
const adminPaths: string[] = ['admin'];

/**
 * The admin path as an address: `/admin` after a quote, `=`, `(`, a backtick or whitespace, or
 * after an origin. `/api/admin/…` (the panel script's API calls) is not the panel's address.
 */
function addressOf(adminPath: string): RegExp {
  const escaped = adminPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|["'\`(=\\s]|https?://[^/"'\\s]+)/${escaped}(?![\\w-])`, 'i');
}

/** Waits while the rebuild service is building, so the scan reads one whole build. */
async function builderIdle() {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = (await (await fetch(rebuildUrl)).json()) as { state: string };
    if (status.state !== 'building') return status;
    if (Date.now() > deadline) throw new Error('the rebuild service kept building for 3 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  await builderIdle();
  const rels = await listFiles(DIST);
  // Read as latin1: one character per byte, so text and binary files are searched alike.
  files = await Promise.all(rels.map(async (rel) => ({ rel, text: await readFile(path.join(DIST, rel), 'latin1') })));

  const login = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: E2E_ADMIN_PASSWORD }),
  });
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
  if (login.ok && cookie) {
    const res = await apiAt(baseUrl, { cookie }).admin.path.$get();
    const { path: current } = await res.json();
    if (!adminPaths.includes(current)) adminPaths.push(current);
    await fetch(`${baseUrl}/api/admin/logout`, { method: 'POST', headers: { cookie } });
  }
}, 200_000);

describe('the built site', () => {
  it('should be a complete, fresh build to scan (the scan cannot pass on an empty directory)', async () => {
    const info = JSON.parse(await readFile(path.join(DIST, 'build.json'), 'utf8')) as {
      contentVersion: number;
      builtAt: string;
    };
    expect(Number.isInteger(info.contentVersion)).toBe(true);
    expect(Date.now() - Date.parse(info.builtAt)).toBeLessThan(6 * 60 * 60 * 1000);
    const rels = files.map((f) => f.rel);
    for (const page of ['index.html', '404.html', 'cabins.html', 'contacts.html', 'reviews.html'])
      expect(rels).toContain(page);
    expect(rels.some((r) => r.startsWith('cabin/'))).toBe(true);
    expect(rels.some((r) => r.startsWith('_astro/') && r.endsWith('.js'))).toBe(true);
    expect(files.length).toBeGreaterThan(20);
  });

  it('should contain no rebuild hook address, password or secret name in any file', () => {
    const hookPort = new URL(rebuildUrl).port;
    const forbidden = [
      rebuildUrl,
      `${hookPort}/rebuild`,
      '8788/rebuild',
      '/rebuild',
      'REBUILD_HOOK_URL',
      'ADMIN_PASSWORD',
      E2E_ADMIN_PASSWORD,
      'caspian-demo',
      'test-password-1',
      'pbkdf2-sha256$',
    ];
    const found = files.flatMap(({ rel, text }) =>
      forbidden.filter((s) => text.includes(s)).map((s) => `${rel}: ${s}`),
    );
    expect(found).toEqual([]);
  });

  it('should recognise the admin path written as an address, and only then (self-check of the scan)', () => {
    const asUrl = addressOf('admin');
    for (const text of [
      '<a href="/admin">',
      "fetch('/admin/')",
      'url(/admin)',
      '`/admin?x`',
      '"https://kaspiy-dom.ru/admin"',
      'Disallow: /admin',
    ]) {
      expect(asUrl.test(text), text).toBe(true);
    }
    for (const text of [
      "'/api/admin/login'",
      '/shell/admin',
      'admin',
      '"/administrator"',
      'adminPathInvalid',
      '/admin-panel',
    ]) {
      expect(asUrl.test(text), text).toBe(false);
    }
  });

  it('should never link to the admin panel or name its address as a URL', () => {
    const found: string[] = [];
    for (const adminPath of adminPaths) {
      const asUrl = addressOf(adminPath);
      for (const { rel, text } of files) {
        const m = asUrl.exec(text);
        if (m) found.push(`${rel}: …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
      }
    }
    expect(found).toEqual([]);
  });

  it('should have no page at the admin path, which the asset layer would serve to anyone', async () => {
    for (const adminPath of adminPaths) {
      for (const rel of [adminPath, `${adminPath}.html`, path.join(adminPath, 'index.html')]) {
        expect(
          await stat(path.join(DIST, rel)).then(
            () => true,
            () => false,
          ),
          rel,
        ).toBe(false);
      }
    }
  });

  it('should keep the admin path out of robots.txt, as built and as served', async () => {
    const built = files.find((f) => f.rel === 'robots.txt');
    const served = await fetch(`${baseUrl}/robots.txt`);
    const texts = [built?.text ?? '', served.ok ? await served.text() : ''];
    if (!built) expect(served.ok, 'no robots.txt is built, so none may be served').toBe(false);
    for (const text of texts) {
      expect(text).not.toMatch(/admin/i);
      for (const adminPath of adminPaths) expect(text.toLowerCase()).not.toContain(adminPath.toLowerCase());
    }
  });
});
