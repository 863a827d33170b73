import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { smtpMailer } from '../../worker/platform/node/mailer.ts';
import { freePort } from './free-port.ts';
import { mailText, smtpSink, type SunkMail } from './smtp-sink.ts';
import { until as untilWithin } from './until.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startTelegramStandIn } from '../../stand-ins/telegram-api.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { addCabin, ownerApi as signedIn, postBooking, requestStay, startServer, tempDir } from './test-server.ts';

const OWNER_PASSWORD = 'notify-test-password';

/** The owner's session on a server. */
const ownerApi = (url: string) => signedIn(url, OWNER_PASSWORD);

const review = {
  name: 'Марина Соколова',
  email: 'marina@example.ru',
  rating: 5,
  comment: 'Чудесный домик, море в двух шагах',
  consent: true,
};
const postReview = (url: string, body = review, ip = '203.0.113.7') =>
  fetch(`${url}/api/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-real-ip': ip },
    body: JSON.stringify(body),
  });

const until = <T>(what: string, read: () => T | undefined, timeoutMs = 15_000) => untilWithin(what, read, timeoutMs);

describe('owner notifications on the self-hosted server', () => {
  const dataDir = tempDir('notify');
  let server: NodeServer | undefined;
  const closers: (() => unknown)[] = [];

  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const close of closers.splice(0)) await close();
  });

  async function start(bindings: Parameters<typeof startServer>[0]['bindings'], name: string) {
    server = await startServer({
      dataDir: path.join(dataDir(), name),
      trustedProxy: true,
      shutdownGraceMs: 500,
      adminPassword: OWNER_PASSWORD,
      bindings: { SITE_URL: 'https://kaspiy.example', ...bindings },
    });
    return server;
  }

  /**
   * A server whose notifications go to a local Bot API stand-in (failing its first `failFirst`
   * calls) and to a real SMTP server, or, with `smtp: 'down'`, to a port where nothing listens.
   */
  async function startNotifying(
    name: string,
    { failFirst = 0, smtp: mode = 'up' }: { failFirst?: number; smtp?: 'up' | 'down' } = {},
  ) {
    const bot = await startTelegramStandIn({ failFirst });
    closers.push(bot.close);
    const smtp = mode === 'up' ? await smtpSink() : { mails: [] as SunkMail[], port: await freePort(), close() {} };
    closers.push(smtp.close);
    const s = await start(
      {
        TELEGRAM_BOT_TOKEN: '123456:test-token',
        TELEGRAM_CHAT_ID: '987654',
        TELEGRAM_API_URL: bot.url,
        MAILER: smtpMailer(`smtp://127.0.0.1:${smtp.port}/?from=site@kaspiy.example&to=owner@kaspiy.example`),
      },
      name,
    );
    return { s, bot, smtp };
  }

  it('should send the owner a Telegram message and an e-mail about a new review', async () => {
    const { s, bot, smtp } = await startNotifying('both');

    const res = await postReview(s.url);
    expect(res.status).toBe(201);

    const message = await until('the Telegram message', () => bot.messages[0]);
    expect(message.path).toBe('/bot123456:test-token/sendMessage');
    expect(message.body.chat_id).toBe('987654');
    expect(message.body.text).toContain('Новый отзыв');
    expect(message.body.text).toContain('Марина Соколова');
    expect(message.body.text).toContain('Чудесный домик, море в двух шагах');

    const mail = await until('the e-mail', () => smtp.mails[0]);
    expect(mail.from).toBe('site@kaspiy.example');
    expect(mail.to).toEqual(['owner@kaspiy.example']);
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?/);
    expect(mailText(mail.raw)).toContain('Марина Соколова <marina@example.ru>');
    expect(mailText(mail.raw)).toContain('Чудесный домик, море в двух шагах');
  });

  it('should tell the owner of a new booking request by Telegram and e-mail, answering the visitor at once while the Bot API fails and delivering on a retry', async () => {
    const { s, bot, smtp } = await startNotifying('booking', { failFirst: 2 });
    const cabin = await addCabin(s);
    const checkIn = addDays(todayInMoscow(), 40);
    const started = Date.now();
    const res = await postBooking(
      s.url,
      {
        cabinId: cabin.id,
        checkIn,
        checkOut: addDays(checkIn, 2),
        guests: 3,
        name: 'Ольга Петрова',
        phone: '+7 928 111-22-33',
        email: '',
        comment: 'Будем к вечеру',
        channel: 'phone',
      },
      '203.0.113.9',
    );
    expect(res.status).toBe(201);
    // The visitor is answered at once, while the Bot API is still failing.
    expect(Date.now() - started).toBeLessThan(1000);
    const { id } = await bodyOf(res, 201);

    const message = await until('the retried Telegram message', () => bot.messages[0], 20_000);
    expect(bot.calls()).toBe(3);
    expect(message.body.text).toContain(`Новая заявка №${id}`);
    for (const part of [
      '«Домик у моря»',
      'Ольга Петрова, +7 928 111-22-33',
      'Ночей: 2, гостей: 3',
      'Итого: 14\u00a0000\u00a0₽',
      'Связь: Звонок',
      'Будем к вечеру',
      '«Заявки»',
    ]) {
      expect(message.body.text).toContain(part);
    }
    const mail = await until('the e-mail', () => smtp.mails[0]);
    expect(mailText(mail.raw)).toContain('Ольга Петрова, +7 928 111-22-33');
  }, 30_000);

  it('should store the review and answer 201 while the Bot API and the SMTP server are down, then deliver on a retry', async () => {
    // Nothing listens where the mail goes: every SMTP attempt is refused.
    const { s, bot } = await startNotifying('down', { failFirst: 2, smtp: 'down' });

    const started = Date.now();
    const res = await postReview(s.url, { ...review, name: 'Олег' }, '203.0.113.8');
    expect(res.status).toBe(201);
    // The visitor is answered at once, not after the retries.
    expect(Date.now() - started).toBeLessThan(1000);
    const stored = s.storage.db.prepare("SELECT name, approved FROM reviews WHERE name = 'Олег'");
    expect(await stored.first()).toEqual({ name: 'Олег', approved: 0 });

    const message = await until('the retried Telegram message', () => bot.messages[0], 20_000);
    expect(bot.calls()).toBe(3);
    expect(message.body.text).toContain('Олег');
  }, 30_000);

  /** A cabin and a guest's request for it with an e-mail, as a visitor sends it. */
  const requestWithEmail = (s: NodeServer) =>
    requestStay(s, { ahead: 50, nights: 3, email: 'madina@example.ru', ip: '203.0.113.20' });

  it('should e-mail the guest the confirmation when the owner confirms, and say so in «Заявки» after a reload', async () => {
    const { s, smtp } = await startNotifying('guest-mail');
    const { id } = await requestWithEmail(s);
    const api = await ownerApi(s.url);

    const confirmed = await api('PUT', `/admin/bookings/${id}`, { status: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ id, status: 'confirmed', confirmationMail: 'sent' });

    const mail = await until('the guest’s e-mail', () => smtp.mails.find((m) => m.to.includes('madina@example.ru')));
    expect(mail.from).toBe('site@kaspiy.example');
    expect(mail.to).toEqual(['madina@example.ru']);
    // The owner's template («Настройки»; the default here) with the link to the guest's page.
    const text = mailText(mail.raw).replace(/\u00a0/g, ' ');
    const token = (await s.storage.bindings.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
      .bind(id)
      .first<{ t: string }>())!.t;
    for (const part of [
      'Здравствуйте, Мадина!',
      'Ваше бронирование подтверждено: «Домик у моря», заезд',
      `https://kaspiy.example/b/${token}`,
    ]) {
      expect(text).toContain(part);
    }
    // The owner's list, read again as after a reload, still says the mail went.
    const list = await api<Record<string, unknown>[]>('GET', '/admin/bookings');
    expect(list.json.find((b) => b.id === id)).toMatchObject({ status: 'confirmed', confirmationMail: 'sent' });
  }, 30_000);

  it('should still confirm when the mail server is down, and report the e-mail as not sent', async () => {
    const { s, smtp } = await startNotifying('guest-mail-down', { smtp: 'down' });
    const { cabin, checkIn, id } = await requestWithEmail(s);
    const api = await ownerApi(s.url);

    const confirmed = await api('PUT', `/admin/bookings/${id}`, { status: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ id, status: 'confirmed', confirmationMail: 'failed' });
    expect(smtp.mails).toEqual([]);
    // Confirmed for real: its nights are busy for the next visitor.
    const availability = await bodyOf(
      await apiAt(s.url).cabins[':id'].availability.$get({ param: { id: String(cabin.id) } }),
      200,
    );
    expect(availability.busy).toContainEqual({ start: checkIn, end: addDays(checkIn, 3) });
    const list = await api<Record<string, unknown>[]>('GET', '/admin/bookings');
    expect(list.json.find((b) => b.id === id)).toMatchObject({ status: 'confirmed', confirmationMail: 'failed' });
  }, 30_000);

  it('should e-mail nobody when the guest left no e-mail', async () => {
    const { s, smtp } = await startNotifying('guest-no-mail');
    const cabin = await addCabin(s, { name: 'Домик', description: 'У моря', pricePerNight: 5000, maxGuests: 2 });
    const checkIn = addDays(todayInMoscow(), 60);
    const res = await postBooking(
      s.url,
      {
        cabinId: cabin.id,
        checkIn,
        checkOut: addDays(checkIn, 1),
        guests: 1,
        name: 'Игорь',
        phone: '+7 916 765-43-21',
        email: '',
        comment: '',
        channel: 'phone',
      },
      '203.0.113.21',
    );
    const { id } = await bodyOf(res, 201);
    const api = await ownerApi(s.url);
    const confirmed = await api('PUT', `/admin/bookings/${id}`, { status: 'confirmed' });
    expect(confirmed.json).toMatchObject({ status: 'confirmed', confirmationMail: '' });
    // Only the owner's notice of the request reaches the mail server.
    await until('the owner’s notice', () => smtp.mails[0]);
    expect(smtp.mails.every((m) => m.to.join() === 'owner@kaspiy.example')).toBe(true);
  }, 30_000);
});
