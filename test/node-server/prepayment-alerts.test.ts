import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startYooKassaStandIn, type YooKassaStandIn } from '../../stand-ins/yookassa-api.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { startServer } from './test-server.ts';
import { createCabin } from '../../worker/queries/cabins.ts';
import { saveMaxBot } from '../../worker/queries/max-bot.ts';
import { updateSettings } from '../../worker/queries/settings.ts';
import { readRequests, startMaxStandIn } from '../../stand-ins/max-api.ts';
import { startTelegramStandIn, type TelegramMessage } from '../../stand-ins/telegram-api.ts';

// Prepayment end to end on the self-hosted server, as the owner lives it: a guest pays on ЮKassa's
// page (the stand-in's), ЮKassa tells the server by its notification (the server reads the
// payment back), the booking confirms itself and the owner hears of it in Telegram and in MAX.

const MAX_TOKEN = 'prepayment-alerts-max-token';

describe("a prepayment paid on ЮKassa's page, on the self-hosted server", () => {
  const closers: (() => Promise<unknown>)[] = [];
  let telegram: TelegramMessage[] = [];
  let server: NodeServer;
  let yookassa: YooKassaStandIn;
  let maxUrl: string;

  beforeAll(async () => {
    const bot = await startTelegramStandIn();
    telegram = bot.messages;
    closers.push(bot.close);
    const max = await startMaxStandIn();
    maxUrl = max.url;
    closers.push(max.close);
    yookassa = await startYooKassaStandIn({ shopId: 'alerts-shop', secretKey: 'alerts-secret' });
    closers.push(yookassa.close);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kaspiy-prepayment-'));
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    server = await startServer({
      dataDir,
      trustedProxy: true,
      shutdownGraceMs: 500,
      bindings: {
        TELEGRAM_BOT_TOKEN: '123:abc',
        TELEGRAM_CHAT_ID: '42',
        TELEGRAM_API_URL: bot.url,
        MAX_API_URL: max.url,
        YOOKASSA_API_URL: yookassa.apiUrl,
        YOOKASSA_SHOP_ID: yookassa.shopId,
        YOOKASSA_SECRET_KEY: yookassa.secretKey,
      },
    });
    closers.push(() => server.close());
    yookassa.notifyUrl = `${server.url}/api/payments/yookassa`;
    const env = server.storage.bindings;
    await saveMaxBot(env, {
      token: MAX_TOKEN,
      name: 'Каспий',
      username: 'kaspiy_alerts_bot',
      payload: 'p',
      userId: 777,
      chatId: 1,
      connectedAt: new Date().toISOString(),
    });
    await updateSettings(env, {
      bookingMode: 'prepayment',
      prepayment: { kind: 'percent', percent: 20 },
      cleaningFee: 1000,
      touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 },
    });
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('should confirm the booking by itself and tell the owner in Telegram and MAX', async () => {
    const cabin = await createCabin(server.storage.bindings, {
      name: 'Домик у моря',
      description: 'У воды',
      pricePerNight: 5000,
      images: [],
      amenities: [],
    } as never);
    const checkIn = addDays(todayInMoscow(), 20);
    const res = await apiAt(server.url, { headers: { 'x-real-ip': '203.0.113.77' } }).bookings.$post({
      json: {
        cabinId: cabin.id,
        checkIn,
        checkOut: addDays(checkIn, 2),
        guests: 2,
        name: 'Мадина',
        phone: '+7 928 111-22-33',
        consent: true,
        channel: 'whatsapp',
      },
    });
    expect(res.status).toBe(201);
    const started = await bodyOf(res, 201);
    // 2 × 5 000 + 1 000 cleaning + 2 % tax (200) = 11 200; 20 % of it.
    expect(started.total).toBe(11200);
    expect(started.payment!.amount).toBe(224000);

    // The guest presses «Оплатить» on the payment page and is sent back to the cabin.
    const paid = await fetch(`${started.payment!.confirmationUrl}/succeed`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(
      new RegExp(`/cabin/${cabin.id}\\?booking=${started.id}&token=[0-9a-f]{36}#booking$`),
    );

    const row = await server.storage.db
      .prepare('SELECT status FROM bookings WHERE id = ?')
      .bind(started.id)
      .first<{ status: string }>();
    expect(row?.status).toBe('confirmed');
    const deadline = Date.now() + 10_000;
    const maxMessages = async () =>
      (await readRequests(maxUrl)).filter((r) => r.method === 'POST' && r.path.startsWith('/messages'));
    let inMax: string[] = [];
    while (Date.now() < deadline) {
      inMax = (await maxMessages()).map((m) => m.body?.text ?? '');
      if (
        telegram.some((m) => m.body.text.includes('Оплачена предоплата')) &&
        inMax.some((t) => t.includes('Оплачена предоплата'))
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(telegram.map((m) => m.body.text)).toContainEqual(
      expect.stringContaining(`Оплачена предоплата 2\u00a0240\u00a0₽: бронирование №${started.id} подтверждено`),
    );
    expect(inMax).toContainEqual(expect.stringContaining(`бронирование №${started.id} подтверждено`));
    // The receipt went with the payment, to the guest's phone.
    expect(yookassa.receipts.find((r) => r.kind === 'payment')?.receipt).toMatchObject({
      customer: { phone: '79281112233' },
    });
  }, 30_000);
});
