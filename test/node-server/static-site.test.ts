import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startServer } from './test-server.ts';
import { precompressSite, staticSite } from '../../worker/platform/node/static-site.ts';
import { rawRequest } from './raw-request.ts';

// The built site as `npm run serve` serves it from DATA_DIR/site, over real HTTP: a small site
// written here (no Astro build), precompressed as after every build, with the real _headers file.

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGE = (title: string) =>
  `<!doctype html><html lang="ru"><title>${title}</title><p>${'Домики у моря. '.repeat(200)}</p></html>`;

let tmp: string;
let siteDir: string;
let server: NodeServer;

const raw = (pathname: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(server.url, pathname, headers, method);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'kaspiy-static-'));
  siteDir = path.join(tmp, 'data', 'site');
  const files: Record<string, string> = {
    'index.html': PAGE('Главная'),
    'cabins.html': PAGE('Каталог'),
    'cabin/3.html': PAGE('Домик 3'),
    '404.html': PAGE('Страница не найдена'),
    '_astro/island.abc123.js': `console.log(${JSON.stringify('остров '.repeat(300))});`,
    'shell/admin.html': PAGE('Админ'),
    'build.json': '{"contentVersion":1}',
    '.env': 'SECRET=1',
  };
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(siteDir, rel)), { recursive: true });
    await writeFile(path.join(siteDir, rel), body);
  }
  await copyFile(path.join(ROOT, 'site/public/_headers'), path.join(siteDir, '_headers'));
  await writeFile(path.join(tmp, 'data', 'secret.txt'), 'outside the site');
  await precompressSite(siteDir);
  server = await startServer({
    dataDir: path.join(tmp, 'data'),
    staticFiles: staticSite({ root: siteDir, https: false }),
  });
});

afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the built site served from disk', () => {
  it('should send the brotli or gzip twin the browser accepts, the same page either way', async () => {
    const br = await raw('/cabins', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await raw('/cabins', { 'accept-encoding': 'gzip' });
    const plain = await raw('/cabins');
    for (const res of [br, gz, plain]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.vary).toBe('accept-encoding');
    }
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).toString()).toBe(PAGE('Каталог'));
    expect(gunzipSync(gz.body).toString()).toBe(PAGE('Каталог'));
    expect(plain.body.toString()).toBe(PAGE('Каталог'));
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    // br;q=0 refuses brotli.
    expect((await raw('/cabins', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('should answer extensionless addresses as the Workers assets binding does', async () => {
    expect((await raw('/')).body.toString()).toBe(PAGE('Главная'));
    expect((await raw('/cabin/3')).body.toString()).toBe(PAGE('Домик 3'));
    for (const [from, to] of [
      ['/cabins/', '/cabins'],
      ['/cabins.html', '/cabins'],
      ['/index.html', '/'],
      ['/index', '/'],
      ['/cabin/3.html?x=1', '/cabin/3?x=1'],
    ]) {
      const res = await raw(from!);
      expect(res.status, from).toBe(307);
      expect(
        new URL(res.headers.location as string).pathname + new URL(res.headers.location as string).search,
        from,
      ).toBe(to);
    }
  });

  it('should put the _headers rules on every file: CSP and nosniff on pages, immutable scripts, no HSTS over http', async () => {
    const page = await raw('/cabin/3');
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'; object-src 'none'; base-uri 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    const script = await raw('/_astro/island.abc123.js', { 'accept-encoding': 'br' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
  });

  it('should send HSTS when the public address is https', async () => {
    const https = staticSite({ root: siteDir, https: true });
    const res = await https(new Request('https://kaspiy.example/cabins'));
    expect(res!.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('should answer HEAD with the headers and no body, and a known ETag of the same encoding with 304', async () => {
    const head = await raw('/cabins', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const get = await raw('/cabins', { 'accept-encoding': 'br' });
    expect(Number(head.headers['content-length'])).toBe(get.body.length);
    const etag = get.headers.etag as string;
    const again = await raw('/cabins', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The brotli validator does not stand for the plain page.
    expect((await raw('/cabins', { 'if-none-match': etag })).status).toBe(200);
  });

  it('should send the plain file while its compressed twin is from an older build', async () => {
    const file = path.join(siteDir, 'cabin/3.html');
    await writeFile(file, PAGE('Домик 3, новый'));
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    const res = await raw('/cabin/3', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(PAGE('Домик 3, новый'));
  });

  it('should leave /api, /media, /shell, dot files, twins and _headers to the app', async () => {
    for (const p of ['/shell/admin', '/.env', '/cabins.html.br', '/index.html.gz', '/_headers']) {
      const res = await raw(p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString(), p).toContain('Страница не найдена');
    }
    const api = await raw('/api/no-such-thing');
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    const media = await raw('/media/no-such-photo.jpg');
    expect(media.status).toBe(404);
    expect(media.headers['content-type']).toMatch(/^application\/json/);
  });

  it("should hand /{key}.txt, which is no file of the site, to the app: IndexNow's stored key, else the 404 page", async () => {
    const key = '0123456789abcdef0123456789abcdef';
    expect((await raw(`/${key}.txt`)).status, 'no key stored yet').toBe(404);
    await server.storage.bindings.DB.prepare("INSERT INTO settings (key, value) VALUES ('promotion', ?)")
      .bind(JSON.stringify({ webmasterCode: '', metrikaId: '', indexNowKey: key }))
      .run();
    const res = await raw(`/${key}.txt`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body.toString()).toBe(key);
    const other = await raw('/fedcba9876543210fedcba9876543210.txt');
    expect(other.status).toBe(404);
    expect(other.body.toString()).toContain('Страница не найдена');
  });

  it('should never send a file from outside the site folder, however the path is spelled', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/..%2fsecret.txt',
      '/cabin%2f..%2f..%2fsecret.txt',
      '/cabin/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/cabin%5c..%5c..%5csecret.txt',
      '/.%2e/secret.txt',
      '/%252e%252e/secret.txt',
      '/cabins%00.html',
    ];
    for (const attempt of attempts) {
      const res = await raw(attempt);
      expect(res.body.toString(), attempt).not.toContain('outside the site');
      expect([400, 404], attempt).toContain(res.status);
    }
  });
});
