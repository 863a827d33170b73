import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startServer } from './test-server.ts';
import { saveMaxBot } from '../../worker/queries/max-bot.ts';
import { readRequests, type RecordedRequest, startMaxStandIn } from '../../stand-ins/max-api.ts';

// The MAX channel of notifyOwner on the self-hosted server: the same retries as Telegram and
// e-mail, the visitor answered before any of them.

const TOKEN = 'max-notify-test-token-0001';
const OWNER_ID = 31_337;

describe('owner notices in MAX on the self-hosted server', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function start(failMessages: number) {
    const max = await startMaxStandIn({ failMessages });
    closers.push(max.close);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kaspiy-max-notify-'));
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    const server: NodeServer = await startServer({
      dataDir,
      trustedProxy: true,
      shutdownGraceMs: 500,
      bindings: { SITE_URL: 'https://kaspiy.example', MAX_API_URL: max.url },
    });
    closers.push(() => server.close());
    // The bot as «Проверить подключение» leaves it once the owner pressed «Начать».
    await saveMaxBot(server.storage.bindings, {
      token: TOKEN,
      name: 'Каспий',
      username: 'kaspiy_alerts_bot',
      payload: 'p',
      userId: OWNER_ID,
      chatId: 1,
      connectedAt: new Date().toISOString(),
    });
    const messages = async () =>
      (await readRequests(max.url)).filter((r) => r.method === 'POST' && r.path.startsWith('/messages'));
    return { server, messages };
  }

  it('should answer the reviewer at once while MAX fails, and deliver the notice on the third attempt', async () => {
    const { server, messages } = await start(2);
    const started = Date.now();
    const res = await fetch(`${server.url}/api/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-real-ip': '203.0.113.40' },
      body: JSON.stringify({
        name: 'Тимур',
        email: 'timur@example.ru',
        rating: 5,
        comment: 'Тихо, чисто, море рядом',
        consent: true,
      }),
    });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1000);

    const deadline = Date.now() + 20_000;
    let sent: RecordedRequest[] = [];
    while (Date.now() < deadline) {
      sent = await messages();
      if (sent.length === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Two refused, the third delivered: each to the owner, the token only in the header.
    expect(sent).toHaveLength(3);
    for (const r of sent) {
      expect(r.path).toBe(`/messages?user_id=${OWNER_ID}`);
      expect(r.authorization).toBe(TOKEN);
      expect(r.body?.text).toContain('Новый отзыв');
      expect(r.body?.text).toContain('Тихо, чисто, море рядом');
    }
  }, 30_000);
});
