import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../worker/env.ts';
import { mailApiMailer } from '../../worker/platform/mail-api.ts';
import { nodeMailer, smtpMailer } from '../../worker/platform/node/mailer.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startMailApiStandIn } from '../../stand-ins/mail-api.ts';
import { freePort } from './free-port.ts';
import { mailText, smtpSink } from './smtp-sink.ts';
import { ownerApi as signedIn, requestStay, startServer, tempDir } from './test-server.ts';
import { until } from './until.ts';

// The e-mails to a guest on the self-hosted server: by SMTP to the guest's own address,
// kept through the mail server's outage and a restart of the site's server, and by the HTTP mail
// API where there is no SMTP_URL. The contract on both runtimes is test/worker/guest-messages.test.ts.

const PASSWORD = 'guest-mail-password';
const SITE = 'https://kaspiy.example';

const dataDir = tempDir('guest-mail');
const servers: NodeServer[] = [];
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const s of servers.splice(0)) await s.close();
  for (const close of closers.splice(0)) await close();
});

async function start(name: string, bindings: Partial<Bindings>, scheduleTickMs?: number) {
  const s = await startServer({
    dataDir: path.join(dataDir(), name),
    trustedProxy: true,
    shutdownGraceMs: 100,
    adminPassword: PASSWORD,
    bindings: { SITE_URL: SITE, ...bindings },
    ...(scheduleTickMs ? { scheduleTickMs } : {}),
  });
  servers.push(s);
  return s;
}

/** The owner's session on a server. */
const ownerApi = (url: string) => signedIn(url, PASSWORD);

/** A guest's request with an e-mail, as a visitor sends it. */
async function request(s: NodeServer, email: string) {
  const { id } = await requestStay(s, { ahead: 30, nights: 2, email, ip: '203.0.113.40' });
  const token = (await s.storage.bindings.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
    .bind(id)
    .first<{ t: string }>())!.t;
  return { id, token };
}

describe('a guest’s e-mails on the self-hosted server', () => {
  it('should keep the confirmation through the SMTP server’s outage and a restart of the site, then send it once, by the schedule, to the guest', async () => {
    const port = await freePort();
    const smtpUrl = `smtp://127.0.0.1:${port}/?from=site@kaspiy.example&to=owner@kaspiy.example`;
    const first = await start('smtp', { MAILER: smtpMailer(smtpUrl) });
    const { id, token } = await request(first, 'madina@example.ru');
    let api = await ownerApi(first.url);
    const confirmed = await api('PUT', `/admin/bookings/${id}`, { status: 'confirmed' });
    expect(confirmed.json).toMatchObject({ status: 'confirmed', confirmationMail: 'failed' });
    const [failed] = (
      await api<{ lastError: string; sentAt: string | null }[]>('GET', `/admin/bookings/${id}/messages`)
    ).json;
    expect(failed).toMatchObject({ sentAt: null, lastError: expect.stringContaining('ECONNREFUSED') });

    // The site restarts meanwhile; the mail server comes back.
    await servers.shift()!.close();
    const smtp = await smtpSink(port);
    closers.push(smtp.close);
    // Two minutes on, the next try is due (the clock keeps running, so waiting still ends).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const second = await start('smtp', { MAILER: smtpMailer(smtpUrl) }, 100);

    const mail = await until(
      'the confirmation by SMTP',
      () => smtp.mails.find((m) => m.to.includes('madina@example.ru')),
      10_000,
    );
    expect(mail.raw).toMatch(/^To: madina@example\.ru/m);
    // Named by its outbox row (every try the same Message-ID, so a try again after a lost answer shows once).
    expect(mail.raw).toMatch(/^Message-ID: <kaspiy\.example\/outbox\/\d+\/[0-9a-f]{16}@kaspiy\.example>$/im);
    const text = mailText(mail.raw);
    expect(text).toContain('Здравствуйте, Мадина!');
    expect(text).toContain(`${SITE}/b/${token}`);
    // A few more ticks of the schedule: not sent twice.
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.filter((m) => m.to.includes('madina@example.ru'))).toHaveLength(1);
    api = await ownerApi(second.url);
    const [sent] = (
      await api<{ sentAt: string | null; attempts: number; lastError: string | null }[]>(
        'GET',
        `/admin/bookings/${id}/messages`,
      )
    ).json;
    expect(sent).toMatchObject({ sentAt: expect.any(String), attempts: 2, lastError: null });
  });

  it('should send through the HTTP mail API without SMTP_URL, as the API expects, with its refusal and its silence as errors, and alert the owner by e-mail only with MAIL_TO', async () => {
    const standIn = await startMailApiStandIn();
    closers.push(standIn.close);
    const env = {
      MAIL_API_KEY: 'key-1',
      MAIL_FROM: 'Каспий <site@kaspiy.example>',
      MAIL_API_URL: `${standIn.url}/emails`,
    };
    expect(mailApiMailer({ MAIL_FROM: 'site@kaspiy.example' })).toBeUndefined();
    const mailer = nodeMailer(env)!;
    await mailer.send({ to: 'guest@example.ru', subject: 'Скоро заезд', text: 'Ждём вас' });
    expect(standIn.mails).toEqual([
      {
        authorization: 'Bearer key-1',
        idempotencyKey: null,
        from: 'Каспий <site@kaspiy.example>',
        to: ['guest@example.ru'],
        subject: 'Скоро заезд',
        text: 'Ждём вас',
      },
    ]);
    await expect(mailer.send({ subject: 'Новая заявка', text: '…' })).rejects.toThrow('MAIL_TO is not set');
    await fetch(`${standIn.url}/_stand-in/outage`, { method: 'POST', body: JSON.stringify({ down: true }) });
    await expect(mailer.send({ to: 'guest@example.ru', subject: 'Скоро заезд', text: 'Ждём вас' })).rejects.toThrow(
      /^Mail API answered 503: \{"statusCode":503/,
    );
    await fetch(`${standIn.url}/_stand-in/outage`, { method: 'POST', body: JSON.stringify({ down: false }) });
    const silent = await startMailApiStandIn({ hang: true });
    closers.push(silent.close);
    const started = Date.now();
    await expect(
      mailApiMailer({ ...env, MAIL_API_URL: `${silent.url}/emails` }, { timeoutMs: 300 })!.send({
        to: 'guest@example.ru',
        subject: 'x',
        text: 'y',
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);

    // A server whose mail API knows no owner's address: the guest is e-mailed, the owner is not.
    const s = await start('api', { MAILER: mailer });
    const { id, token } = await request(s, 'anna@example.ru');
    const api = await ownerApi(s.url);
    expect((await api('PUT', `/admin/bookings/${id}`, { status: 'confirmed' })).json).toMatchObject({
      confirmationMail: 'sent',
    });
    const toGuest = standIn.mails.find((m) => m.to.includes('anna@example.ru'));
    expect(toGuest?.text).toContain(`${SITE}/b/${token}`);
    const channels = await s.storage.bindings.DB.prepare('SELECT channel, kind FROM outbox').all<{
      channel: string;
      kind: string | null;
    }>();
    expect(channels.results).toEqual([{ channel: 'email', kind: 'confirmation' }]);

    const withOwner = nodeMailer({ ...env, MAIL_TO: 'owner@kaspiy.example' })!;
    await withOwner.send({ subject: 'Новая заявка', text: '…' });
    expect(standIn.mails.at(-1)).toMatchObject({ to: ['owner@kaspiy.example'], subject: 'Новая заявка' });
  });
});
