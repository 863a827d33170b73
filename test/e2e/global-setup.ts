import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { stackAddresses, startStack, type Stack } from '../../scripts/lib/stack.ts';
import { ROOT } from '../../scripts/lib/tools.ts';
import { startMailApiStandIn } from '../../stand-ins/mail-api.ts';
import { startMaxStandIn } from '../../stand-ins/max-api.ts';
import { startMetrikaStandIn } from '../../stand-ins/metrika.ts';
import { startTelegramStandIn } from '../../stand-ins/telegram-api.ts';

export const E2E_ADMIN_PASSWORD = 'e2e-password-1';
/** The owner's address (MAIL_TO) the stack's e-mailed alerts go to. */
export const E2E_OWNER_EMAIL = 'owner@kaspiy.test';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rebuildUrl: string;
    /** The ЮKassa stand-in the local stack runs (its payment page «pays»). */
    yookassaUrl: string;
    /** The Avito stand-in of the stack (scripts/lib/stack.ts DEMO_AVITO), its /_control too. */
    avitoUrl: string;
    /** The MAX Bot API stand-in the site under test writes to (MAX_API_URL). */
    maxApiUrl: string;
    /** The Telegram Bot API stand-in the site's owner alerts go to (TELEGRAM_API_URL). */
    telegramApiUrl: string;
    /** The HTTP mail API stand-in the site's e-mail goes to (MAIL_API_URL is `${mailApiUrl}/emails`); GET /_stand-in/mails lists what it got. */
    mailApiUrl: string;
    /** Yandex Metrika's host as the site's builds know it (METRIKA_URL); GET /_stand-in/requests lists what it got. */
    metrikaUrl: string;
    /** wrangler dev's local state (D1's SQLite files) of the stack under test. */
    e2eStateDir: string;
    /** Written once the stack is up (or could not start): test/e2e/wait-for-stack.ts reads it. */
    e2eReadyFile: string;
  }
}

// Three stacks, each started once for the projects that use it: global setups run in vitest's main
// process, so the first setup of a stack starts it and the last teardown stops it. The journeys
// that change content (e2e-content) have the stack on E2E_PORT; the visitor journeys, which only
// read, one of their own (E2E_PORT + 100), so they can run while the content journeys still change
// theirs; the panel's journeys that never wait for a rebuild (e2e-panel) a third (E2E_PORT + 200),
// so they run beside both (vitest.config.ts). Starting a stack (migrations, wrangler dev, the
// first build) takes half a minute; it goes on in the background while the contract tests run,
// and every e2e file first waits for it (wait-for-stack.ts). The other stacks start one after
// another once the first is up: the content journeys, the run's longest path, wait for theirs alone.
type Shared = { stack: Promise<Stack>; where: Where; users: number };
/** What the tests are told before the stack is up: every address follows from the port. */
type Where = {
  port: number;
  persistTo: string;
  assetsDir: string;
  /** The worker bundled once, as `wrangler deploy` bundles it (scripts/lib/stack.ts). */
  workerBundleDir: string;
  readyFile: string;
  maxApiUrl: string;
  telegramApiUrl: string;
  mailApiUrl: string;
  metrikaUrl: string;
  closeStandIns: () => Promise<unknown>;
};
const KEY = Symbol.for('kaspiy.e2e.stacks');
const shared = globalThis as unknown as { [KEY]?: Map<number, Promise<Shared>> };

/** The content journeys' stack; the others this far above it (their ports follow from it: stackAddresses). */
const CONTENT_PORT = Number(process.env.E2E_PORT ?? 8790);
/** The projects with a stack of their own; every other e2e project has the content journeys' one. */
const PORT_OFFSET: Record<string, number> = { 'e2e-visitor': 100, 'e2e-panel': 200 };

async function prepare(port: number): Promise<Where> {
  // Another port gets its own state and build, so two stacks or two runs never share them.
  const suffix = port === 8790 ? '' : `-${port}`;
  const persistTo = path.join(ROOT, `.wrangler/e2e-state${suffix}`);
  const assetsDir = path.join(ROOT, `node_modules/.cache/e2e-dist${suffix}`);
  const readyFile = path.join(ROOT, `node_modules/.cache/e2e-ready${suffix}.json`);
  const workerBundleDir = path.join(ROOT, `node_modules/.cache/e2e-worker${suffix}`);
  await Promise.all([persistTo, assetsDir, readyFile].map((p) => rm(p, { recursive: true, force: true })));
  const max = await startMaxStandIn();
  const telegram = await startTelegramStandIn();
  const mail = await startMailApiStandIn();
  const metrika = await startMetrikaStandIn();
  return {
    port,
    persistTo,
    assetsDir,
    workerBundleDir,
    readyFile,
    maxApiUrl: max.url,
    telegramApiUrl: telegram.url,
    mailApiUrl: mail.url,
    metrikaUrl: metrika.url,
    closeStandIns: () => Promise.all([max.close(), telegram.close(), mail.close(), metrika.close()]),
  };
}

/**
 * Starts the whole site as `npm start` does, on its own port, database and build directory, so
 * the tests never touch the developer's local data; then says so in the ready file (or why it
 * could not). One difference: the worker is the bundle `wrangler deploy` would upload, made once,
 * where `npm start` watches its code and bundles it again on a change (StackOptions.workerBundleDir).
 */
async function startE2eStack(w: Where): Promise<Stack> {
  try {
    const stack = await startStack({
      port: w.port,
      persistTo: w.persistTo,
      assetsDir: w.assetsDir,
      adminPassword: E2E_ADMIN_PASSWORD,
      metrikaUrl: w.metrikaUrl,
      workerBundleDir: w.workerBundleDir,
      vars: {
        MAX_API_URL: w.maxApiUrl,
        TELEGRAM_API_URL: w.telegramApiUrl,
        TELEGRAM_BOT_TOKEN: '100200:e2e-token',
        TELEGRAM_CHAT_ID: '4242',
        // E-mail as on Workers: the guests' messages (test/e2e/content/guest-page.journey.ts reads
        // them) and, with MAIL_TO, the owner's alerts beside Telegram's; no journey counts those.
        MAIL_API_URL: `${w.mailApiUrl}/emails`,
        MAIL_API_KEY: 're_e2e_key',
        MAIL_FROM: 'Каспий <site@kaspiy.test>',
        MAIL_TO: E2E_OWNER_EMAIL,
      },
      log: () => {},
    });
    await writeFile(w.readyFile, JSON.stringify({ ok: true }));
    return { ...stack, stop: () => stack.stop().finally(w.closeStandIns) };
  } catch (err) {
    await writeFile(
      w.readyFile,
      JSON.stringify({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
    await w.closeStandIns();
    throw err;
  }
}

export default async function setup(project: TestProject) {
  const port = CONTENT_PORT + (PORT_OFFSET[project.name] ?? 0);
  const stacks = (shared[KEY] ??= new Map<number, Promise<Shared>>());
  let started = stacks.get(port);
  if (!started) {
    const before = [...stacks.values()];
    started = prepare(port).then((where) => {
      // After any stack already starting: two first builds at once slowed both.
      const stack = Promise.all(before.map((s) => s.then((e: Shared) => e.stack).catch(() => null))).then(() =>
        startE2eStack(where),
      );
      stack.catch(() => {}); // told through the ready file, and again at teardown
      return { stack, where, users: 0 };
    });
    stacks.set(port, started);
  }
  const entry = await started;
  entry.users += 1;
  const { persistTo, readyFile, maxApiUrl, telegramApiUrl, mailApiUrl, metrikaUrl } = entry.where;
  const addresses = stackAddresses(port);
  project.provide('baseUrl', addresses.url);
  project.provide('rebuildUrl', addresses.rebuildUrl);
  project.provide('yookassaUrl', addresses.yookassaUrl);
  project.provide('avitoUrl', addresses.avitoUrl);
  project.provide('maxApiUrl', maxApiUrl);
  project.provide('telegramApiUrl', telegramApiUrl);
  project.provide('mailApiUrl', mailApiUrl);
  project.provide('metrikaUrl', metrikaUrl);
  project.provide('e2eStateDir', persistTo);
  project.provide('e2eReadyFile', readyFile);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    stacks.delete(port);
    const stack = await entry.stack.catch(() => null);
    await stack?.stop();
  };
}
