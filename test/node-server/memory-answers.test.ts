import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { InferResponseType } from 'hono/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { SETTLE_MS } from '../../worker/platform/node/read-on-change.ts';
import { precompressSite, staticSite } from '../../worker/platform/node/static-site.ts';
import { createCabin } from '../../worker/queries/cabins.ts';
import type { Api } from '../typed-api.ts';
import { rawRequest } from './raw-request.ts';
import { startServer, tempDir } from './test-server.ts';

// The self-hosted server keeps the answers to repeated reads (site files, the public API) in
// memory and writes them straight to the socket. What a visitor must never notice: an answer
// older than the data, the site, or the clock.

const PAGE = (text: string) => `<!doctype html><html lang="ru"><title>Каталог</title><p>${text.repeat(100)}</p></html>`;

const dataDir = tempDir('memory');
let siteDir: string;
let server: NodeServer;
let cabinId: number;

/** A request as written (fetch would add its own Accept-Encoding), its body as text. */
const get = async (pathname: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await rawRequest(server.url, pathname, headers, method);
  return { ...res, body: res.body.toString('utf8') };
};

/** Runs SQL on the server's file from another connection, on its own thread: a second process (a restore, a script). */
async function writeFromAnotherConnection(sql: string, params: (string | number)[]) {
  const worker = new Worker(
    `const { DatabaseSync } = require('node:sqlite');
     const { workerData, parentPort } = require('node:worker_threads');
     const db = new DatabaseSync(workerData.file);
     db.prepare(workerData.sql).run(...workerData.params);
     db.close();
     parentPort.postMessage('done');`,
    { eval: true, workerData: { file: server.storage.paths.dbFile, sql, params } },
  );
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
}

const busyOf = async (id: number) => {
  const answer: InferResponseType<Api['cabins'][':id']['availability']['$get'], 200> = JSON.parse(
    (await get(`/api/cabins/${id}/availability`)).body,
  );
  return answer.busy;
};

beforeAll(async () => {
  siteDir = path.join(dataDir(), 'site');
  await mkdir(siteDir, { recursive: true });
  await writeFile(path.join(siteDir, 'cabins.html'), PAGE('Первая сборка. '));
  await writeFile(path.join(siteDir, 'build.json'), '{"contentVersion":1}');
  server = await startServer({
    dataDir: dataDir(),
    siteDir,
    shutdownGraceMs: 500,
    staticFiles: staticSite({ root: siteDir, https: false }),
  });
  // A description long enough that the catalogue's answer is compressed (over 1 KB).
  cabinId = (
    await createCabin(server.storage.bindings, {
      name: 'Домик у моря',
      description: 'Домик у самой воды. '.repeat(60),
      pricePerNight: 5000,
      images: [],
      amenities: [],
    } as never)
  ).id;
});
afterAll(async () => {
  await server?.close();
});

describe('answers kept in memory by the self-hosted server', () => {
  it('should show nights blocked by another process at the next request', async () => {
    const start = addDays(todayInMoscow(), 10);
    expect(await busyOf(cabinId)).toEqual([]);
    expect(await busyOf(cabinId)).toEqual([]); // asked twice: the second answer is the kept one
    await writeFromAnotherConnection(
      'INSERT INTO calendar_blocks (cabin_id, start, "end", note, created_at) VALUES (?, ?, ?, ?, ?)',
      [cabinId, start, addDays(start, 2), 'ремонт', new Date().toISOString()],
    );
    expect(await busyOf(cabinId)).toEqual([{ start, end: addDays(start, 2) }]);
  });

  // Once the data folder has been quiet for a while, the server stops asking SQLite and the disk at
  // every request and waits for the kernel's notice of a change: the next request must still see it.
  const quiet = () => new Promise((r) => setTimeout(r, SETTLE_MS + 300));

  it('should show nights blocked by another process at the next request after a quiet spell', async () => {
    const start = addDays(todayInMoscow(), 30);
    await quiet();
    expect(await busyOf(cabinId)).not.toContainEqual({ start, end: addDays(start, 3) });
    expect(await busyOf(cabinId)).not.toContainEqual({ start, end: addDays(start, 3) });
    await writeFromAnotherConnection(
      'INSERT INTO calendar_blocks (cabin_id, start, "end", note, created_at) VALUES (?, ?, ?, ?, ?)',
      [cabinId, start, addDays(start, 3), 'гости', new Date().toISOString()],
    );
    expect(await busyOf(cabinId)).toContainEqual({ start, end: addDays(start, 3) });
  });

  it('should send the search page of a new build at the next request after a quiet spell', async () => {
    // The search page is the build's shell filled in by the app, and kept like the API's answers.
    await mkdir(path.join(siteDir, 'shell'), { recursive: true });
    await writeFile(path.join(siteDir, 'shell', 'search.html'), PAGE('Поиск, первая сборка. '));
    await writeFile(path.join(siteDir, 'build.json'), '{"contentVersion":3}');
    await quiet();
    expect((await get('/search')).body).toContain('Поиск, первая сборка.');
    expect((await get('/search')).body).toContain('Поиск, первая сборка.');
    await writeFile(path.join(siteDir, 'shell', 'search.html'), PAGE('Поиск, вторая сборка. '));
    await writeFile(path.join(siteDir, 'build.json'), '{"contentVersion":4}');
    expect((await get('/search')).body).toContain('Поиск, вторая сборка.');
  });

  it('should free the nights of a payment hold the moment it runs out, with no write', async () => {
    const checkIn = addDays(todayInMoscow(), 20);
    const holdUntil = new Date(Date.now() + 1500).toISOString();
    await server.storage.db
      .prepare(`INSERT INTO bookings (cabin_id, check_in, check_out, nights, guests, total, name, phone, channel, status, hold_until, created_at, updated_at)
                VALUES (?, ?, ?, 2, 2, 10000, 'Анна', '+79990000000', 'phone', 'awaiting_payment', ?, ?, ?)`)
      .bind(cabinId, checkIn, addDays(checkIn, 2), holdUntil, new Date().toISOString(), new Date().toISOString())
      .run();
    const held = { start: checkIn, end: addDays(checkIn, 2) };
    expect(await busyOf(cabinId)).toContainEqual(held);
    expect(await busyOf(cabinId)).toContainEqual(held);
    await new Promise((r) => setTimeout(r, Date.parse(holdUntil) - Date.now() + 50));
    expect(await busyOf(cabinId)).not.toContainEqual(held);
  });

  it('should send the new page once a build replaces it, and a page changed by hand', async () => {
    expect((await get('/cabins')).body).toContain('Первая сборка.');
    expect((await get('/cabins')).body).toContain('Первая сборка.');
    // A build writes its pages, then build.json last (scripts/build-site.ts).
    await writeFile(path.join(siteDir, 'cabins.html'), PAGE('Вторая сборка. '));
    await writeFile(path.join(siteDir, 'build.json'), '{"contentVersion":2}');
    expect((await get('/cabins')).body).toContain('Вторая сборка.');
    await writeFile(path.join(siteDir, 'cabins.html'), PAGE('Правка руками, длиннее прежней. '));
    expect((await get('/cabins')).body).toContain('Правка руками, длиннее прежней.');
  });

  it('should stop sending a brotli twin from memory once the page beside it is newer', async () => {
    await precompressSite(siteDir);
    const first = await get('/cabins', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect((await get('/cabins', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
    // Edited by hand after the build: its twin is now older than it, so the page goes as it is.
    const page = path.join(siteDir, 'cabins.html');
    await writeFile(page, PAGE('Исправлено после сборки. '));
    const later = new Date(Date.now() + 5000);
    await utimes(page, later, later);
    const after = await get('/cabins', { 'accept-encoding': 'br' });
    expect(after.headers['content-encoding']).toBeUndefined();
    expect(after.body).toContain('Исправлено после сборки.');
  });

  it('should answer a kept page to If-None-Match with 304 and to HEAD with its headers alone', async () => {
    const first = await get('/cabins');
    const again = await get('/cabins', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    const head = await get('/cabins', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('should keep one answer per encoding: a browser that takes only gzip never gets brotli', async () => {
    const answers = [];
    for (const encoding of ['br', 'gzip', '', 'br', 'gzip', ''])
      answers.push(await get('/api/cabins', encoding ? { 'accept-encoding': encoding } : {}));
    expect(answers.map((a) => a.headers['content-encoding'])).toEqual([
      'br',
      'gzip',
      undefined,
      'br',
      'gzip',
      undefined,
    ]);
    expect(JSON.parse(answers[5]!.body)[0].name).toBe('Домик у моря');
  });
});
