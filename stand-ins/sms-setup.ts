import type { TestProject } from 'vitest/node';
import { startSmsStandIn } from './sms-api.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The SMS.ru stand-in of this test project (SMS_API_URL of the app under test). */
    smsApiUrl: string;
  }
}

/** One SMS.ru stand-in per project run, for the guests' SMS on both runtimes (worker, node-api). */
export default async function setup(project: TestProject) {
  const standIn = await startSmsStandIn();
  project.provide('smsApiUrl', standIn.url);
  return () => standIn.close();
}
