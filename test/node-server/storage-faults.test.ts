import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { bodyOf } from '../typed-api.ts';
import { JPEG, ownerRequests, signIn, startServer, tempDir, uploadPhoto } from './test-server.ts';

// Faults of the self-hosted storage as they really happen: another program holding the SQLite
// file's write lock, a photo gone from the media folder. Each costs that request only.

const PASSWORD = 'storage-faults-1';

const tmp = tempDir('storage-faults');
let server: NodeServer;
let cookie: string;

const { api, putTitle, heroTitle } = ownerRequests(() => ({ url: server.url, cookie }));

beforeAll(async () => {
  server = await startServer({ dataDir: tmp(), adminPassword: PASSWORD });
  cookie = await signIn(server.url, PASSWORD);
});

afterAll(async () => {
  await server?.close();
});

describe('the self-hosted server with its storage failing', () => {
  it('should answer a write with 503 and Retry-After while another program holds the database past the wait, change nothing, keep reads going, and write again once it lets go', async () => {
    const before = await heroTitle();
    const other = new DatabaseSync(server.storage.paths.dbFile);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      other.exec('BEGIN IMMEDIATE');
      // Reads go on beside the other program's write lock (the file is in WAL mode).
      expect((await api('/api/cabins')).status).toBe(200);
      // The lock is never let go while the write is tried: it is refused after its wait, whole.
      const refused = await putTitle('Во время чужой блокировки');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: MSG.databaseBusy });
      expect(warned).toHaveBeenCalledWith('Database busy, answered 503', 'PUT', '/api/settings');
    } finally {
      other.exec('ROLLBACK');
      other.close();
      warned.mockRestore();
    }
    expect(await heroTitle()).toBe(before);
    expect((await putTitle('После блокировки')).status).toBe(200);
    expect(await heroTitle()).toBe('После блокировки');
  }, 20_000);

  it('should answer a photo gone from the media folder with a JSON 404, and still serve the others', async () => {
    const upload = async () => {
      const res = await uploadPhoto(server.url, cookie);
      expect(res.status).toBe(201);
      return (await bodyOf(res, 201)).imageUrl;
    };
    const [gone, kept] = [await upload(), await upload()];
    await rm(path.join(server.storage.paths.mediaDir, gone.replace('/media/', '')));
    const missing = await fetch(`${server.url}${gone}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: MSG.notFound });
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    const present = await fetch(`${server.url}${kept}`);
    expect(present.status).toBe(200);
    expect(new Uint8Array(await present.arrayBuffer())).toEqual(JPEG);
    // Nothing half-written was left behind by the uploads.
    expect((await readdir(server.storage.paths.mediaDir)).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
