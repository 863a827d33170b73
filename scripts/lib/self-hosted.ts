// The self-hosted production server (docs/operations.md «Self-hosting in Russia»), started by scripts/serve.ts
// once its memory settings are in place. One Node process: the same Hono app as on Workers over
// a SQLite file and a media folder in DATA_DIR, the built site served from disk precompressed,
// and rebuilds after edits (in a process of their own, lib/warm-astro.ts).
import { accessSync, constants, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hasBuild } from '../build-site.ts';
import { writePlaceholder } from './stack.ts';
import { ROOT } from './tools.ts';
import { createRebuilder } from '../rebuild-service.ts';
import { CHANNEL_PUSH_EVERY_MS } from '../../schema/channels.ts';
import { DEFAULT_ADMIN_PATH } from '../../schema/constants.ts';
import { isStorageFull, type MailerPort } from '../../worker/platform/ports.ts';
import { nodeMailer } from '../../worker/platform/node/mailer.ts';
import { startNodeServer } from '../../worker/platform/node/server.ts';
import { getAdminPath } from '../../worker/queries/admin.ts';
import { ensureOwner } from '../../worker/queries/users.ts';
import { getContentVersion } from '../../worker/queries/site-state.ts';
import { siteCompression } from '../../worker/platform/node/site-compression.ts';
import { staticSite } from '../../worker/platform/node/static-site.ts';

/** Exit code for a problem the owner must fix (systemd: RestartPreventExitStatus=78, no crash loop). */
const EX_CONFIG = 78;
/** What to free on a full disk (docs/operations.md «Health checks»). */
const FREE_SPACE =
  'Free space: old backups (/var/backups/kaspiy), the journal (journalctl --vacuum-size=200M), apt-get clean';

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(EX_CONFIG);
}

const env = process.env;
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT=${env.PORT} is not a port number.`);
const dataDir = path.resolve(env.DATA_DIR ?? path.join(ROOT, 'data'));
const siteUrl = (env.SITE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/$/, '');
let https = false;
try {
  https = new URL(siteUrl).protocol === 'https:';
} catch {
  fail(`SITE_URL=${env.SITE_URL} is not an address (e.g. https://kaspiy.ru).`);
}

try {
  mkdirSync(dataDir, { recursive: true });
  accessSync(dataDir, constants.W_OK);
} catch (err) {
  fail(
    `DATA_DIR ${dataDir} cannot be written by this user (${(err as NodeJS.ErrnoException).code}). Create it and give the server's user write access (e.g. chown kaspiy ${dataDir}).`,
  );
}
const siteDir = path.join(dataDir, 'site');

// SMTP_URL, else the HTTP mail API of MAIL_API_KEY (README «Configuration»).
let mailer: MailerPort | undefined;
try {
  mailer = nodeMailer(env);
} catch (err) {
  fail(`SMTP_URL is not usable: ${(err as Error).message}`);
}

// The rebuilder reads the API of this very server, so it is made now and started once it listens.
// Stopping aborts a build that has not started going live (the next start rebuilds it).
let apiUrl = '';
const stopping = new AbortController();
// Each build's changed files get their compressed twins; after a change every page shows, most go
// live with a quick one made best right after (worker/platform/node/site-compression.ts).
const compression = siteCompression();
const rebuilder = createRebuilder({
  signal: stopping.signal,
  get apiUrl() {
    return apiUrl;
  },
  outDir: siteDir,
  siteUrl,
  stagingDir: path.join(dataDir, '.site-staging'),
  beforeRender: compression.pause,
  postBuild: compression.beforeLive,
  afterLive: compression.afterLive,
});

const server = await startNodeServer({
  dataDir,
  siteDir,
  migrationsDir: path.join(ROOT, 'migrations'),
  port,
  host,
  siteUrl,
  trustedProxy: env.TRUSTED_PROXY === '1',
  adminPassword: env.ADMIN_PASSWORD || undefined,
  rebuild: {
    request: () => rebuilder.request(),
    status: async () => ({ ...rebuilder.status, compressing: compression.busy() }),
  },
  bindings: {
    SITE_URL: siteUrl,
    TELEGRAM_BOT_TOKEN: env.TELEGRAM_BOT_TOKEN,
    TELEGRAM_CHAT_ID: env.TELEGRAM_CHAT_ID,
    TELEGRAM_API_URL: env.TELEGRAM_API_URL || undefined,
    YOOKASSA_SHOP_ID: env.YOOKASSA_SHOP_ID,
    YOOKASSA_SECRET_KEY: env.YOOKASSA_SECRET_KEY,
    YOOKASSA_API_URL: env.YOOKASSA_API_URL,
    MAX_API_URL: env.MAX_API_URL || undefined,
    SMS_API_URL: env.SMS_API_URL || undefined,
    AVITO_API_URL: env.AVITO_API_URL || undefined,
    INDEXNOW_URL: env.INDEXNOW_URL || undefined,
    MAILER: mailer,
  },
  staticFiles: staticSite({ root: siteDir, https }),
  scheduleTickMs: CHANNEL_PUSH_EVERY_MS,
  longPollMessengers: true,
}).catch((err: Error & { code?: string }) => {
  if (err.code === 'EADDRINUSE') fail(`Port ${port} on ${host} is taken by another program. Set PORT to a free one.`);
  if (err.code === 'EACCES') fail(`Port ${port} needs privileges; use a port above 1024 behind the proxy.`);
  // Not a broken database: moving it away (the advice below) would lose nothing but help nothing.
  if (isStorageFull(err))
    fail(
      `The disk under DATA_DIR ${dataDir} is full (${err.message}); nothing was changed. ${FREE_SPACE}, then start again.`,
    );
  fail(
    `The database in ${dataDir} could not be opened: ${err.message}. Restore the last backup (npm run restore) or move the file away to start empty.`,
  );
});
apiUrl = server.url;

const stop = async (signal: string) => {
  console.log(`${signal}: finishing requests in flight, then closing the database…`);
  stopping.abort();
  // A site swap under way finishes (the site is never left half old, half new).
  await Promise.all([server.close(), rebuilder.idle()]);
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

// The first admin (the owner) is made now from ADMIN_PASSWORD (existing accounts are left as they
// are), so the variable can be removed from the settings after the first start.
if (!(await ensureOwner(server.storage.bindings))) {
  console.warn(
    '⚠ No admin account yet and no ADMIN_PASSWORD: set ADMIN_PASSWORD to create the first admin (nobody can sign in until then).',
  );
}
// Loaded only when asked for: the demo's photos bring sharp and libvips, which would stay in memory.
if (env.SEED_DEMO === '1' && (await (await import('../seed.ts')).seedIfEmpty(server.storage.bindings)))
  console.log('• Demo content added to the empty database.');

if (!(await hasBuild(siteDir))) {
  await writePlaceholder(siteDir);
  console.log('• Building the site (the first build optimises every photo: a minute or more)…');
  await rebuilder.request();
  if (rebuilder.status.state === 'failed') {
    const why = rebuilder.status.cause ? `the disk is full. ${FREE_SPACE}; the build is tried again by itself.\n` : '';
    console.error(
      `✖ The site build failed; the placeholder page serves until an edit rebuilds it: ${why}\n${rebuilder.status.error}`,
    );
  }
} else if ((await builtVersion()) < (await getContentVersion(server.storage.bindings))) {
  // An edit whose build was cut short by the last stop (or a restored database): the site that
  // is there serves while the current one builds.
  console.log('• The built site is older than the content: rebuilding it in the background…');
  void rebuilder.request();
}

// The journal keeps this for weeks: an admin path the owner chose is their secret, so only the
// default one is named.
const adminPath = await getAdminPath(server.storage.bindings);
console.log(`
  «Каспий» is serving ${siteUrl} (listening on ${server.url})
  Data:        ${dataDir}
  Admin panel: ${adminPath === DEFAULT_ADMIN_PATH ? `${siteUrl}/${adminPath}` : `${siteUrl}/… (the address set in «Аккаунт»)`}
  Edits rebuild the public site by themselves. SIGTERM or Ctrl+C stops cleanly.
`);

/** The content version of the site on disk (-1 when build.json is unreadable). */
async function builtVersion(): Promise<number> {
  const info = await readFile(path.join(siteDir, 'build.json'), 'utf8').then(
    (t) => JSON.parse(t) as { contentVersion?: unknown },
    () => null,
  );
  return Number.isInteger(info?.contentVersion) ? (info!.contentVersion as number) : -1;
}
