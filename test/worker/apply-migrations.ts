import { applyD1Migrations, env, type D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      /** Bound in vitest.config.ts from the migrations folder. */
      TEST_MIGRATIONS: D1Migration[];
      ADMIN_PASSWORD: string;
      /** The MAX Bot API stand-in (stand-ins/max-api.ts). */
      MAX_API_URL: string;
    }
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// The project does not isolate its files (vitest.config.ts): they run one after another in one
// workerd, on one D1 and one R2. This setup file runs before each of them, so each starts, as on
// the node-api side (a server per file), from an empty database and bucket.
// Newest table first: a table's children were created after it, so a cabin's bookings are gone
// before the cabin (a trigger refuses to delete a cabin that still has bookings).
const tables = await env.DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY rowid DESC",
).all<{ name: string }>();
const hasSequence = await env.DB.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").first();
await env.DB.batch([
  // One transaction: the foreign keys are checked at its end, when every table is empty.
  env.DB.prepare('PRAGMA defer_foreign_keys = on'),
  ...tables.results.map((t) => env.DB.prepare(`DELETE FROM "${t.name}"`)),
  ...(hasSequence ? [env.DB.prepare('DELETE FROM sqlite_sequence')] : []),
]);
for (let listed = await env.MEDIA.list(); listed.objects.length > 0; listed = await env.MEDIA.list()) {
  await env.MEDIA.delete(listed.objects.map((o) => o.key));
}
