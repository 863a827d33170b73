import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Three levels of tests: the worker inside workerd with real D1 and R2, pure rules in Node,
// and end-to-end journeys in Debian's Chromium against the locally served site.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, ADMIN_PASSWORD: 'test-password-1', REBUILD_HOOK_URL: '' },
              },
            }),
          ],
          test: {
            name: 'worker',
            include: ['test/worker/**/*.test.ts'],
            setupFiles: ['test/worker/apply-migrations.ts'],
          },
        },
        {
          test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
        },
        {
          test: {
            name: 'e2e',
            include: ['test/e2e/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['test/e2e/global-setup.ts'],
            // Journeys share one server: run files one after another, with room for a rebuild.
            fileParallelism: false,
            testTimeout: 60_000,
            hookTimeout: 240_000,
          },
        },
      ],
    },
  };
});
