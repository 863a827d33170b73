import { applyD1Migrations, env } from 'cloudflare:test';

declare module 'cloudflare:test' {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
    ADMIN_PASSWORD: string;
  }
}

// Setup files run outside isolated storage, so the migrated schema is shared by every test.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
