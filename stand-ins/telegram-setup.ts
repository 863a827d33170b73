import type { TestProject } from 'vitest/node';
import { startTelegramStandIn } from './telegram-api.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The Telegram Bot API stand-in of this test project (TELEGRAM_API_URL of the app under test). */
    telegramApiUrl: string;
  }
}

/** One Telegram stand-in per project run, for the guests' bot on both runtimes (worker, node-api). */
export default async function setup(project: TestProject) {
  const standIn = await startTelegramStandIn();
  project.provide('telegramApiUrl', standIn.url);
  return () => standIn.close();
}
