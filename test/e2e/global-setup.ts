import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startStack, type Stack } from '../../scripts/lib/stack.ts';
import { ROOT } from '../../scripts/lib/tools.ts';
import { startMaxStandIn } from '../stand-ins/max-api.ts';
import { startTelegramStandIn } from '../stand-ins/telegram-api.ts';

export const E2E_ADMIN_PASSWORD = 'e2e-password-1';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rebuildUrl: string;
    /** The ЮKassa stand-in the local stack runs (its payment page «pays»). */
    yookassaUrl: string;
    /** The MAX Bot API stand-in the site under test writes to (MAX_API_URL). */
    maxApiUrl: string;
    /** The Telegram Bot API stand-in the site's owner alerts go to (TELEGRAM_API_URL). */
    telegramApiUrl: string;
    /** wrangler dev's local state (D1's SQLite files) of the stack under test. */
    e2eStateDir: string;
  }
}

// The two e2e projects (vitest.config.ts) share one stack: global setups run in vitest's main
// process, so the first one starts it and the last teardown stops it.
type Shared = { stack: Promise<E2eStack>; users: number };
type E2eStack = Stack & { maxApiUrl: string; telegramApiUrl: string; stateDir: string };
const KEY = Symbol.for('kaspiy.e2e.stack');
const shared = globalThis as unknown as { [KEY]?: Shared };

/**
 * Starts the whole site exactly as `npm start` does, on its own port, database and build
 * directory, so the tests never touch the developer's local data.
 */
async function startE2eStack(): Promise<E2eStack> {
  // Another port (E2E_PORT) gets its own state and build, so two runs never share them.
  const port = Number(process.env.E2E_PORT ?? 8790);
  const suffix = port === 8790 ? '' : `-${port}`;
  const persistTo = path.join(ROOT, `.wrangler/e2e-state${suffix}`);
  const assetsDir = path.join(ROOT, `node_modules/.cache/e2e-dist${suffix}`);
  await rm(persistTo, { recursive: true, force: true });
  await rm(assetsDir, { recursive: true, force: true });
  const max = await startMaxStandIn();
  const telegram = await startTelegramStandIn();
  const closeStandIns = () => Promise.all([max.close(), telegram.close()]);
  try {
    const stack = await startStack({
      port,
      persistTo,
      assetsDir,
      adminPassword: E2E_ADMIN_PASSWORD,
      vars: { MAX_API_URL: max.url, TELEGRAM_API_URL: telegram.url, TELEGRAM_BOT_TOKEN: '100200:e2e-token', TELEGRAM_CHAT_ID: '4242' },
      log: () => {},
    });
    return { ...stack, maxApiUrl: max.url, telegramApiUrl: telegram.url, stateDir: persistTo, stop: () => stack.stop().finally(closeStandIns) };
  } catch (err) {
    await closeStandIns();
    throw err;
  }
}

export default async function setup(project: TestProject) {
  const entry = (shared[KEY] ??= { stack: startE2eStack(), users: 0 });
  entry.users += 1;
  const stack = await entry.stack;
  project.provide('baseUrl', stack.url);
  project.provide('rebuildUrl', stack.rebuildUrl);
  project.provide('yookassaUrl', stack.yookassaUrl);
  project.provide('maxApiUrl', stack.maxApiUrl);
  project.provide('telegramApiUrl', stack.telegramApiUrl);
  project.provide('e2eStateDir', stack.stateDir);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[KEY];
    await stack.stop();
  };
}
