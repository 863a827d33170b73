import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startServer } from './test-server.ts';

// A write the server refuses before reading its body (not signed in, not JSON) is answered to a
// client still sending it: the owner whose session ended mid-upload of a photo must read «войдите»,
// not a broken connection. The server reads what is left of the body before it closes.

let dataDir: string;
let server: NodeServer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'kaspiy refused Каспий-'));
  server = await startServer({
    dataDir,
    adminPassword: 'refused-upload-password-1',
    shutdownGraceMs: 500,
  });
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Sends `body` in pieces, as a phone uploads, and resolves with the answer or the socket's error. */
function upload(pathname: string, headers: Record<string, string>, body: Buffer) {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; text: string } | { error: string }>((resolve) => {
    const req = request(
      {
        hostname,
        port,
        path: pathname,
        method: 'PUT',
        agent: false,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    void (async () => {
      for (let at = 0; at < body.length; at += 16 * 1024) {
        if (req.destroyed) return;
        req.write(body.subarray(at, at + 16 * 1024));
        await new Promise((r) => setImmediate(r));
      }
      req.end();
    })();
  });
}

describe('a write refused before its body is read', () => {
  it('should answer every one of 40 unsigned 200 KB writes with its JSON error, never a broken connection', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'я'.repeat(100_000) }));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        upload(
          i % 2 ? '/api/admin/settings' : '/api/admin/cabins/1/channels',
          { 'content-type': i % 4 === 1 ? 'text/plain' : 'application/json', origin: server.url },
          body,
        ),
      ),
    );
    for (const a of answers) {
      expect(a).not.toHaveProperty('error');
      const { status, text } = a as { status: number; text: string };
      expect([401, 415]).toContain(status);
      expect(JSON.parse(text)).toHaveProperty('error');
    }
  });
});
