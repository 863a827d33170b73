import { applyD1Migrations, env, type D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      /** Bound in vitest.config.ts from the migrations folder. */
      TEST_MIGRATIONS: D1Migration[];
      ADMIN_PASSWORD: string;
      /** The MAX Bot API stand-in (test/stand-ins/max-api.ts). */
      MAX_API_URL: string;
    }
  }
}

// Setup files run outside per-test storage, so the migrated schema is shared by every test.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
