import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { readRequests, startMaxStandIn } from '../../stand-ins/max-api.ts';
import { startTelegramStandIn } from '../../stand-ins/telegram-api.ts';
import { openNodeStorage } from '../../worker/platform/node/bindings.ts';
import { freePort } from './free-port.ts';
import { addCabin, ownerApi, postBooking, ROOT, tempDir } from './test-server.ts';
import { until } from './until.ts';

// A guest's messages to the Telegram bot survive the self-hosted server being killed (SIGKILL, no
// chance to finish anything) at any moment while it takes them: by long polling, Telegram drops
// an update only once the offset after it is asked for, and the server asks for it only after the
// batch that stores the message is committed; by webhook, Telegram posts an update again until it
// is answered 200, and the server answers only after that batch. Every message ends up in the
// booking's thread once, in the order the guest wrote.

const PASSWORD = 'message-kill-password';
const HTTPS_SITE = 'https://kaspiy.example';
/**
 * How long after the server was handed updates it is killed: at once, mid-write, after. Each is a
 * restart of the server, so three moments, not more, keep the test within a minute or two.
 */
const KILL_AFTER_MS = [0, 5, 25];
/** The guest's chat (Telegram) or user id (MAX). */
const GUEST = 1_800_001;

type Served = { process: ChildProcess; url: string; log: () => string };

/** `npm run serve` as the owner runs it, on `port` with its own DATA_DIR, until it answers. */
async function serve(env: Record<string, string>, port: number): Promise<Served> {
  let log = '';
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await until(
    `the server to answer (its log: ${log})`,
    async () => {
      if (child.exitCode !== null) throw new Error(`The server exited ${child.exitCode}: ${log}`);
      return fetch(`${url}/api/health`).then(
        (r) => (r.status < 500 ? true : undefined),
        () => undefined,
      );
    },
    // A cold start of the server beside the content journeys on two busy cores took over 30 s.
    90_000,
  );
  return { process: child, url, log: () => log };
}

async function kill(served: Served | undefined) {
  if (!served || served.process.exitCode !== null || served.process.signalCode !== null) return;
  const exited = once(served.process, 'exit');
  served.process.kill('SIGKILL');
  await exited;
}

describe('a guest’s messages to the bots when the self-hosted server is killed while it takes them', () => {
  const dataRoot = tempDir('message-kill');
  let server: Served | undefined;
  const closers: (() => unknown)[] = [];

  afterEach(async () => {
    await kill(server);
    server = undefined;
    for (const close of closers.splice(0)) await close();
  });

  /**
   * One messenger as the test drives it: its stand-in (telling the test when it hands updates to
   * the server), the bot the owner connects in the panel, and a guest writing to it.
   */
  type Messenger = {
    env: Record<string, string>;
    close: () => unknown;
    connect: Record<string, unknown>;
    /** The guest taps the page's link (its one-time code) in the messenger. */
    start: (code: string) => Promise<unknown>;
    /** Whether the bot has said anything to the guest (the answer to the tap). */
    answered: () => Promise<boolean>;
    say: (text: string) => Promise<unknown>;
  };
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function telegramOf(port: number, handOver: () => void, webhook: boolean): Promise<Messenger> {
    const telegram = await startTelegramStandIn({
      hookAddress: (url) => url.replace(HTTPS_SITE, `http://127.0.0.1:${port}`),
      redeliverMs: 50,
      onHandOver: handOver,
    });
    const token = `1800001:kill-${crypto.randomUUID()}`;
    let updateId = 1_800_000;
    const update = (text: string) =>
      post(`${telegram.url}/_stand-in/updates`, {
        token,
        deliver: webhook ? 'until-ok' : false,
        update: {
          update_id: ++updateId,
          message: { message_id: updateId, date: 1_790_000_000, chat: { id: GUEST, type: 'private' }, text },
        },
      });
    return {
      env: { TELEGRAM_API_URL: telegram.url },
      close: telegram.close,
      connect: { telegram: { token } },
      start: (code) => update(`/start ${code}`),
      answered: async () => telegram.messages.some((m) => String(m.body.chat_id) === String(GUEST)),
      say: update,
    };
  }

  async function maxOf(handOver: () => void): Promise<Messenger> {
    const max = await startMaxStandIn({ onHandOver: handOver });
    const token = `kill-${crypto.randomUUID()}`;
    return {
      env: { MAX_API_URL: max.url },
      close: max.close,
      connect: { max: { token } },
      start: (code) => post(`${max.url}/_stand-in/start`, { token, payload: code, userId: GUEST, chatId: -GUEST }),
      answered: async () =>
        (await readRequests(max.url)).some((r) => r.method === 'POST' && r.path === `/messages?user_id=${GUEST}`),
      say: (text) => post(`${max.url}/_stand-in/message`, { token, userId: GUEST, text }),
    };
  }

  it.each([
    { messenger: 'telegram', how: 'long polling', site: undefined },
    { messenger: 'telegram', how: 'the webhook', site: HTTPS_SITE },
    { messenger: 'max', how: 'long polling', site: undefined },
  ] as const)(
    'should keep each $messenger message once, in order, read by $how',
    { timeout: 180_000 },
    async ({ messenger, how, site }) => {
      const port = await freePort();
      const dataDir = path.join(dataRoot(), `${messenger}-${how.replace(/\W/g, '-')}`);
      // The cabin goes in before the first start, as the owner's earlier edits would have: an edit
      // through the API would start a site build, which this test does not need.
      const storage = await openNodeStorage({ dataDir, migrationsDir: path.join(ROOT, 'migrations') });
      const cabin = await addCabin({ storage } as Parameters<typeof addCabin>[0]);
      storage.close();
      // A site already built for every content version: no build runs beside the server.
      await mkdir(path.join(dataDir, 'site'), { recursive: true });
      await writeFile(path.join(dataDir, 'site', 'build.json'), JSON.stringify({ contentVersion: 1e12 }));

      /** Set by the test when the next hand-over of updates to the server should end with a kill. */
      let armed: number | undefined;
      let killing: Promise<void> | undefined;
      const handOver = () => {
        if (armed === undefined || killing) return;
        const after = armed;
        armed = undefined;
        const victim = server;
        killing = new Promise<void>((r) => setTimeout(r, after)).then(() => kill(victim));
      };
      const bot =
        messenger === 'telegram' ? await telegramOf(port, handOver, site !== undefined) : await maxOf(handOver);
      closers.push(bot.close);
      const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, ...bot.env, ...(site ? { SITE_URL: site } : {}) };
      server = await serve(env, port);

      const api = await ownerApi(server.url, PASSWORD);
      const connected = await api('PUT', '/admin/messengers', bot.connect);
      expect(connected.status).toBe(200);
      expect(connected.json[messenger].mode).toBe(site ? 'webhook' : 'polling');

      const checkIn = addDays(todayInMoscow(), 30);
      const booked = await postBooking(server.url, {
        cabinId: cabin.id,
        checkIn,
        checkOut: addDays(checkIn, 3),
        guests: 2,
        name: 'Мадина Гасанова',
        phone: '+7 928 123-45-67',
        email: '',
        comment: '',
        channel: 'telegram',
      });
      expect(booked.status).toBe(201);
      const { guestUrl } = (await booked.json()) as { guestUrl: string };
      const guestToken = guestUrl.split('/').filter(Boolean).at(-1)!;
      const link = await post(`${server.url}/api/guest/${guestToken}/link/${messenger}`, {});
      expect(link.status).toBe(200);
      const code = new URL(((await link.json()) as { url: string }).url).searchParams.get('start')!;
      await bot.start(code);
      await until('the bot to say the chat is tied', async () => ((await bot.answered()) ? true : undefined), 15_000);

      const words: string[] = [];
      for (const [round, after] of KILL_AFTER_MS.entries()) {
        armed = after;
        killing = undefined;
        for (let i = 1; i <= 3; i++) {
          words.push(`Сообщение ${round + 1}.${i}: во сколько можно заехать?`);
          await bot.say(words.at(-1)!);
        }
        await until(
          `round ${round}: the server to be handed the messages (its log: ${server?.log()})`,
          () => (killing ? true : undefined),
          15_000,
        );
        await killing;
        server = await serve(env, port);
      }

      /** What the guest wrote, as the thread in «Сообщения» holds it. */
      const thread = async () => {
        const { json: threads } = await api('GET', `/admin/threads?channel=${messenger}`);
        const id = (threads as { id: number }[])[0]?.id;
        if (id === undefined) return [];
        const { json } = await api('GET', `/admin/threads/${id}`);
        return (json as { messages: { direction: string; text: string }[] }).messages
          .filter((m) => m.direction === 'in')
          .map((m) => m.text);
      };
      // Waited for up to 30 s; a message lost shows below as missing from the thread.
      await until(
        'the thread to hold every message',
        async () => ((await thread()).length >= words.length ? true : undefined),
        30_000,
      ).catch(() => undefined);
      // Whatever was still on its way (a redelivery, a poll) has come by now: nothing doubles later.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await thread()).toEqual(words);
    },
  );
});
