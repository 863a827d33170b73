import type { TestProject } from 'vitest/node';
import { startIndexNowStandIn } from './indexnow-api.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The IndexNow stand-in of this test project: INDEXNOW_URL is `${indexNowApiUrl}/indexnow`. */
    indexNowApiUrl: string;
  }
}

/** One IndexNow stand-in per project run, for the schedule's lists on both runtimes (worker, node-api). */
export default async function setup(project: TestProject) {
  const standIn = await startIndexNowStandIn();
  project.provide('indexNowApiUrl', standIn.url);
  return () => standIn.close();
}
