import type { TestProject } from 'vitest/node';
import { startMailApiStandIn } from './mail-api.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The HTTP mail API stand-in of this test project: MAIL_API_URL is `${mailApiUrl}/emails`. */
    mailApiUrl: string;
  }
}

/** One mail API stand-in per project run, for the guests' messages on both runtimes (worker, node-api). */
export default async function setup(project: TestProject) {
  const standIn = await startMailApiStandIn();
  project.provide('mailApiUrl', standIn.url);
  return () => standIn.close();
}
