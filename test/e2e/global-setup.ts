import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startStack } from '../../scripts/lib/stack.ts';
import { ROOT } from '../../scripts/lib/tools.ts';

export const E2E_ADMIN_PASSWORD = 'e2e-password-1';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rebuildUrl: string;
  }
}

/**
 * Starts the whole site exactly as `npm start` does, on its own port, database and build
 * directory, so the tests never touch the developer's local data.
 */
export default async function setup(project: TestProject) {
  // Another port (E2E_PORT) gets its own state and build, so two runs never share them.
  const port = Number(process.env.E2E_PORT ?? 8790);
  const suffix = port === 8790 ? '' : `-${port}`;
  const persistTo = path.join(ROOT, `.wrangler/e2e-state${suffix}`);
  const assetsDir = path.join(ROOT, `node_modules/.cache/e2e-dist${suffix}`);
  await rm(persistTo, { recursive: true, force: true });
  await rm(assetsDir, { recursive: true, force: true });
  const stack = await startStack({
    port,
    persistTo,
    assetsDir,
    adminPassword: E2E_ADMIN_PASSWORD,
    log: () => {},
  });
  project.provide('baseUrl', stack.url);
  project.provide('rebuildUrl', stack.rebuildUrl);
  return () => stack.stop();
}
