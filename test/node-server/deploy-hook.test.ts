import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployHook } from '../../worker/platform/deploy-hook.ts';

/** A stand-in for the hook's receiver (Workers Builds or GitHub's API) on 127.0.0.1. */
const received: { method: string; path: string; auth?: string; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d));
  req.on('end', () => {
    received.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
    res
      .writeHead(req.url!.endsWith('/dispatches') ? 204 : 200, { 'content-type': 'application/json' })
      .end(req.url!.endsWith('/dispatches') ? undefined : '{"result":{"id":"1"}}');
  });
});
let base = '';
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('the Workers rebuild port (deploy hook)', () => {
  it('should POST to a Workers Builds deploy hook', async () => {
    received.length = 0;
    await deployHook({ REBUILD_HOOK_URL: `${base}/workers/builds/deploy_hooks/abc` })!.request(7);
    expect(received).toEqual([
      {
        method: 'POST',
        path: '/workers/builds/deploy_hooks/abc',
        auth: undefined,
        body: JSON.stringify({ version: 7 }),
      },
    ]);
  });

  it('should send GitHub a repository_dispatch with the token, for the Actions workflow', async () => {
    received.length = 0;
    await deployHook({
      REBUILD_HOOK_URL: `${base}/repos/owner/kaspiy/dispatches`,
      REBUILD_HOOK_TOKEN: 'github_pat_test',
    })!.request(8);
    expect(received).toHaveLength(1);
    expect(received[0]!.auth).toBe('Bearer github_pat_test');
    expect(JSON.parse(received[0]!.body)).toEqual({
      event_type: 'rebuild-site',
      client_payload: { contentVersion: 8 },
    });
  });

  it('should do nothing without a hook address', () => {
    expect(deployHook({ REBUILD_HOOK_URL: '' })).toBeUndefined();
  });
});
