import type { TestProject } from 'vitest/node';
import { startFeedServer } from './feed-server.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** Where stand-ins/feed-server.ts serves other platforms' calendars for this project. */
    feedsUrl: string;
  }
}

/** One feed server per project run (the contract tests on workerd and on Node each have theirs). */
export default async function setup(project: TestProject) {
  const server = await startFeedServer();
  project.provide('feedsUrl', server.url);
  return () => server.close();
}
