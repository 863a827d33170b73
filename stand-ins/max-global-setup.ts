import type { TestProject } from 'vitest/node';
import { startMaxStandIn } from './max-api.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The MAX Bot API stand-in of this test project (MAX_API_URL of the app under test). */
    maxApiUrl: string;
  }
}

/** One MAX stand-in per project run, for the contract tests on both runtimes (worker, node-api). */
export default async function setup(project: TestProject) {
  const standIn = await startMaxStandIn();
  project.provide('maxApiUrl', standIn.url);
  return () => standIn.close();
}
