import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { hasBuild } from '../build-site.ts';
import { untilServedBy } from './served-check.ts';
import { createRebuilder, startRebuildService } from '../rebuild-service.ts';
import { seedLocal } from '../seed.ts';
import { DEMO_FEED_PATH, demoFeedIcs } from '../demo/calendar.ts';
import { ROOT, quietEnv, run, waitFor } from './tools.ts';
import { warmAstro } from './warm-astro.ts';
import { watchServing } from './site-watchdog.ts';
import { startYooKassaStandIn } from '../../stand-ins/yookassa-api.ts';
import { startAvitoStandIn } from '../../stand-ins/avito-api.ts';
import { startTelegramStandIn } from '../../stand-ins/telegram-api.ts';
import { startIndexNowStandIn } from '../../stand-ins/indexnow-api.ts';
import { startSmsStandIn } from '../../stand-ins/sms-api.ts';
import { startMaxStandIn } from '../../stand-ins/max-api.ts';
import { CHANNEL_PUSH_EVERY_MS } from '../../schema/channels.ts';

/**
 * The Avito account of the local stand-in: in «Площадки» these keys connect, and listings
 * 4000001–4000030 are the owner's (docs/development.md «Stand-ins»).
 */
export const DEMO_AVITO = {
  clientId: 'demo-avito-client',
  clientSecret: 'demo-avito-secret',
  userId: 100500,
  items: Array.from({ length: 30 }, (_, i) => 4_000_001 + i),
};

export type StackOptions = {
  port: number;
  /** Local D1/R2 state; wrangler's default is .wrangler/state. */
  persistTo: string;
  /** The directory wrangler serves. */
  assetsDir: string;
  adminPassword: string;
  /** Yandex Metrika's host for the site's builds (METRIKA_URL otherwise): a test's stand-in. */
  metrikaUrl?: string;
  /** More worker variables (`--var`), such as a test stand-in's address. */
  vars?: Record<string, string>;
  /**
   * Where to bundle the worker once, as `wrangler deploy` bundles it, and serve that bundle
   * (`--no-bundle`) instead of `wrangler dev` bundling it again on every change of its code:
   * for the tests' stacks, where the code does not change. esbuild's watch mode polls the
   * worker's files all the time (7–10% of a core per stack, idle), and the site's files reload
   * a little faster without a source map to read. Unset (npm start): the code is watched.
   */
  workerBundleDir?: string;
  log?: (line: string) => void;
};

export type Stack = {
  url: string;
  rebuildUrl: string;
  yookassaUrl: string;
  avitoUrl: string;
  rebuild: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * Where a stack on `port` answers: the site, its rebuild service (port + 1), the ЮKassa stand-in
 * (port + 2) and Avito's (port + 7: clear of the tests' stack, 3 ports above `npm start`'s).
 */
export function stackAddresses(port: number) {
  return {
    url: `http://127.0.0.1:${port}`,
    rebuildPort: port + 1,
    rebuildUrl: `http://127.0.0.1:${port + 1}/rebuild`,
    yookassaPort: port + 2,
    yookassaUrl: `http://127.0.0.1:${port + 2}`,
    avitoPort: port + 7,
    avitoUrl: `http://127.0.0.1:${port + 7}`,
  };
}

/**
 * The whole site as `npm start` runs it: migrated and seeded local D1/R2, `wrangler dev`
 * serving the built site and /api, and the rebuild service behind REBUILD_HOOK_URL.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const { url, rebuildPort, rebuildUrl, yookassaPort, avitoPort } = stackAddresses(opts.port);
  const persistTo = path.resolve(ROOT, opts.persistTo);

  log('• Applying database migrations and checking demo content…');
  // The demo's calendar feed is served by the rebuild service below, on this machine.
  if (await seedLocal(persistTo, { demoFeedUrl: `http://127.0.0.1:${rebuildPort}${DEMO_FEED_PATH}` }))
    log('  demo content added');

  // wrangler needs the assets directory to exist before the first build.
  if (!(await hasBuild(opts.assetsDir))) await writePlaceholder(opts.assetsDir);

  // A developer's machine (npm start, the e2e stacks), where memory is no budget: Astro stays loaded
  // for 10 builds. The self-hosted server's process goes after 3, for a 1 GB VPS (lib/warm-astro.ts).
  // A new version is named live only once wrangler serves the new pages (lib/served-check.ts).
  // Stopping aborts a build that has not started going live; one going live is waited for (stop below).
  const aborting = new AbortController();
  const rebuilder = createRebuilder({
    signal: aborting.signal,
    apiUrl: url,
    outDir: opts.assetsDir,
    metrikaUrl: opts.metrikaUrl,
    render: warmAstro({ maxBuilds: 10 }).render,
    beforeVersion: untilServedBy(url),
  });
  const server: Server = await startRebuildService(rebuilder, rebuildPort, {
    [DEMO_FEED_PATH]: () => ({ type: 'text/calendar; charset=utf-8', body: demoFeedIcs() }),
  });

  // Locally, payments go to a ЮKassa stand-in on this machine (its page «pays» without money), so
  // prepayment can be switched on and tried in the panel; production sets the real shop's keys.
  const yookassa = await startYooKassaStandIn({
    port: yookassaPort,
    notifyUrl: `${url}/api/payments/yookassa`,
    log: (line) => log(`  ЮKassa (демо): ${line}`),
  });

  // Avito's API likewise: a stand-in on this machine with one demo account (DEMO_AVITO), so the
  // channel can be connected and tried in «Площадки»; production talks to api.avito.ru.
  const avito = await startAvitoStandIn({ port: avitoPort, log: (line) => log(`  Авито (демо): ${line}`) });
  avito.addClient(DEMO_AVITO);
  // One guest's chat about the first listing: once Avito is connected, «Сообщения» shows it.
  const demoChat = avito.addChat({ userId: DEMO_AVITO.userId, itemId: DEMO_AVITO.items[0]!, guestName: 'Анна' });
  avito.writeInChat(demoChat.id, 'Здравствуйте! Дом свободен на следующие выходные? Нас будет четверо.');

  // Telegram's Bot API likewise (the guests' bot in «Настройки», and the owner's alerts when
  // TELEGRAM_BOT_TOKEN is set): any token shaped like Telegram's connects; updates are posted to
  // the site's webhook by its /_stand-in/updates (docs/development.md «Stand-ins»). A test stack
  // that brings its own stand-in names it in `vars`.
  const telegram = opts.vars?.TELEGRAM_API_URL
    ? null
    : await startTelegramStandIn({ log: (line) => log(`  Telegram (демо): ${line}`) });

  // IndexNow likewise, though SITE_URL here is local and so IndexNow stays off (worker/indexnow/):
  // nothing is sent unless a developer runs the stack with a domain of their own in SITE_URL.
  const indexNow = await startIndexNowStandIn({ log: (line) => log(`  IndexNow (демо): ${line}`) });

  // SMS.ru likewise: any key of 8 or more letters, digits or dashes is an account with 100 ₽, so
  // SMS to guests can be switched on and tried in «Настройки»; each message is logged here, never
  // sent. A test stack that brings its own stand-in names it in `vars`.
  const sms = opts.vars?.SMS_API_URL ? null : await startSmsStandIn({ log: (line) => log(`  SMS.ru (демо): ${line}`) });

  // MAX's Bot API likewise (the owner's alerts and guests' dialogs, «Настройки» → «Уведомления в
  // MAX»): any token connects; a «Начать» or a guest's words are queued by its /_stand-in/start
  // and /_stand-in/message for the schedule to read. A test stack that brings its own names it in `vars`.
  const max = opts.vars?.MAX_API_URL ? null : await startMaxStandIn();

  log(`• Starting the worker on ${url}…`);
  const worker = opts.workerBundleDir
    ? [await bundleWorker(opts.workerBundleDir, opts.assetsDir), '--no-bundle', '--config', 'wrangler.toml']
    : [];
  const args = [
    'dev',
    ...worker,
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--persist-to',
    persistTo,
    '--assets',
    opts.assetsDir,
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
    '--var',
    `REBUILD_HOOK_URL:${rebuildUrl}`,
    '--var',
    `ADMIN_PASSWORD:${opts.adminPassword}`,
    // A calendar feed served on this machine can be tried locally; production refuses loopback.
    '--var',
    'ALLOW_LOOPBACK_FEEDS:1',
    // The readable API reference at /api/reference, for developers; production answers 404 there.
    '--var',
    'API_REFERENCE:1',
    '--var',
    `YOOKASSA_API_URL:${yookassa.apiUrl}`,
    '--var',
    `YOOKASSA_SHOP_ID:${yookassa.shopId}`,
    '--var',
    `YOOKASSA_SECRET_KEY:${yookassa.secretKey}`,
    '--var',
    `AVITO_API_URL:${avito.apiUrl}`,
    '--var',
    `INDEXNOW_URL:${indexNow.url}/indexnow`,
    ...(telegram ? ['--var', `TELEGRAM_API_URL:${telegram.url}`] : []),
    ...(sms ? ['--var', `SMS_API_URL:${sms.url}`] : []),
    ...(max ? ['--var', `MAX_API_URL:${max.url}`] : []),
    // The links in the guests' e-mails (their booking's page) point here; the schedule's reminders
    // have no request to take the address from. An e-mail goes once MAIL_API_KEY is in .dev.vars.
    '--var',
    `SITE_URL:${url}`,
    // The Cron Trigger's schedule is run by the tick below (scheduledUrl); the flag also keeps
    // wrangler's warning that crons do not run by themselves out of the console.
    '--test-scheduled',
    ...Object.entries(opts.vars ?? {}).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  let stopping = false;
  let wrangler: ChildProcess;
  // wrangler dev's asset watcher can die on a file that vanishes mid-scan while a rebuild
  // replaces the site; the local site must not stay down for that, so it is started again.
  const launch = (): ChildProcess => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/wrangler'), args, {
      cwd: ROOT,
      env: quietEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
    child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
    child.once('exit', (code) => {
      if (stopping || !ready) return;
      log(`• wrangler dev exited (${code}); starting it again`);
      setTimeout(() => {
        if (!stopping) wrangler = launch();
      }, 500);
    });
    return child;
  };
  let ready = false;
  wrangler = launch();
  const exited = new Promise<never>((_, reject) =>
    wrangler.once('exit', (code) => reject(new Error(`wrangler dev exited (${code})`))),
  );
  await Promise.race([waitFor(`${url}/api/build-info`), exited]);
  ready = true;
  // workerd can crash under wrangler dev, which starts a new one that answers nothing while
  // wrangler runs on: a site that answers nothing for 20 s has wrangler stopped, and the exit above
  // starts it again.
  // Its answer, the content version, also lets the builder catch up with an edit whose request
  // to build never arrived (rebuild-service.ts catchUp).
  const watchdog = watchServing(
    `${url}/api/build-info`,
    () => {
      const child = wrangler;
      if (stopping || child.exitCode !== null) return;
      log(`• ${url} has answered nothing for 20 s while wrangler dev runs; starting it again`);
      child.kill('SIGTERM');
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }, 5000).unref();
    },
    {
      onAnswer: (info) => {
        const version = (info as { contentVersion?: unknown } | null)?.contentVersion;
        if (!stopping && typeof version === 'number') rebuilder.catchUp(version);
      },
    },
  );

  log('• Building the site from the API…');
  await rebuilder.request();
  if (rebuilder.status.state === 'failed') throw new Error(`Site build failed:\n${rebuilder.status.error}`);

  // wrangler dev runs no Cron Triggers by itself: the schedule's tick (worker/scheduled.ts) is
  // asked for every minute, as Cloudflare would, so Avito and the calendars sync locally too.
  const tick = setInterval(() => {
    fetch(scheduledUrl(url), { signal: AbortSignal.timeout(50_000) })
      .then((res) => res.body?.cancel())
      .catch((err) => log(`  the schedule's tick did not run: ${err instanceof Error ? err.message : err}`));
  }, CHANNEL_PUSH_EVERY_MS);
  tick.unref();

  const stop = async () => {
    stopping = true;
    watchdog.stop();
    clearInterval(tick);
    server.close();
    // A build still writing into the assets directory would race whatever comes next there (the
    // bench's next instance empties it: ENOTEMPTY). wrangler stays up meanwhile, since a build
    // going live waits for it to serve the new files.
    aborting.abort();
    await rebuilder.idle();
    await Promise.all([
      yookassa.close(),
      avito.close(),
      telegram?.close(),
      indexNow.close(),
      sms?.close(),
      max?.close(),
    ]);
    if (wrangler.exitCode === null) {
      const gone = new Promise((r) => wrangler.once('exit', r));
      wrangler.kill('SIGTERM');
      await gone;
    }
  };
  return {
    url,
    rebuildUrl,
    yookassaUrl: yookassa.apiUrl.replace(/\/v3$/, ''),
    avitoUrl: avito.apiUrl,
    rebuild: rebuilder.request,
    stop,
  };
}

/**
 * The address that runs the Cron Trigger's schedule at once under `wrangler dev` (miniflare's
 * trigger handler; it answers once the run and its waitUntil work are done, 500 if it threw).
 */
export const scheduledUrl = (siteUrl: string, cron = '* * * * *') =>
  `${siteUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}`;

/**
 * Bundles the worker into `dir` as `wrangler deploy` would upload it (a dry run) and returns the
 * bundle's path. Its source map is left out: wrangler reads it again at every reload of the site.
 */
async function bundleWorker(bundleDir: string, assetsDir: string): Promise<string> {
  const dir = path.resolve(ROOT, bundleDir);
  await rm(dir, { recursive: true, force: true });
  await run('wrangler', ['deploy', '--dry-run', '--outdir', dir, '--assets', assetsDir], { quiet: true });
  const files = await readdir(dir);
  const bundle = files.find((f) => f.endsWith('.js'));
  if (!bundle) throw new Error(`wrangler deploy --dry-run wrote no worker into ${dir}: ${files.join(', ')}`);
  await Promise.all(files.filter((f) => f !== bundle).map((f) => rm(path.join(dir, f), { force: true })));
  return path.join(dir, bundle);
}

/**
 * The page that stands in until the first build (wrangler also needs an assets folder). What visitors see before the first build finishes: plainly a site being prepared (no menu, no
 * prices that could pass for the real site), not indexed, and it reloads itself every 30 s.
 * /api/health answers 503 «Сайт ещё не собран» while it serves (no build.json beside it).
 */
export const PLACEHOLDER_PAGE = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="30"><title>Сайт готовится</title><style>body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;color:#1d2b36;background:#f4f1ea}main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.4rem;margin:0 0 .5rem}p{margin:0;color:#55626c}</style></head><body><main><h1>Сайт готовится</h1><p>Мы собираем страницы сайта: это займёт минуту-другую. Страница обновится сама.</p></main></body></html>`;

export async function writePlaceholder(dir: string) {
  await mkdir(dir, { recursive: true });
  const exists = await stat(path.join(dir, 'index.html')).then(
    () => true,
    () => false,
  );
  if (!exists) await writeFile(path.join(dir, 'index.html'), PLACEHOLDER_PAGE);
  await writeFile(path.join(dir, '404.html'), PLACEHOLDER_PAGE);
}
