// `npm run bench`: serves the demo site on both production targets, one after the other on their
// own ports and state (the self-hosted `npm run serve`, then Workers as `npm start` serves it with
// `wrangler dev`), measures each (Lighthouse, page weight, API and a static page under load
// against a control of the same runtime, edit-to-live, growth with the catalogue) and writes
// bench/RESULTS.md and bench/results.json. A benchmark: it reports budgets, it never
// fails on them. BENCH_ONLY=channels,lighthouse,interactions,api,edit,edits,scale,messages,today runs a part and writes to bench/tmp/.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../scripts/lib/tools.ts';
import { signedInPanelWeight } from './admin-panel.ts';
import { checkBudgets, staticPeer } from './budgets.ts';
import { giveControl } from './control-answer.ts';
import { measureChannels, startBenchAvito } from './channels.ts';
import { adminLogin, editToLive } from './edit-to-live.ts';
import { measureEdits } from './edits.ts';
import { cancellableGuestPath, measureInteractions } from './interactions.ts';
import { MEMORY_SIZES, measureMemory } from './memory.ts';
import { applyPricingRules } from './pricing-rules.ts';
import { measureReports } from './reports.ts';
import { measureMessages } from './messages.ts';
import { measureToday } from './today.ts';
import { CADDY, startCaddy, startCompressingEdge } from './caddy.ts';
import { CHROMIUM, lighthousePage } from './lighthouse.ts';
import { measureBlankControl } from './blank-page.ts';
import { loadInTurns, type LoadOptions } from './load.ts';
import { cpuControlMs, describeMachine, sampleLoad } from './machine.ts';
import { renderReport } from './report.ts';
import type { BenchResults, LoadRow, PageKey, PageResult, TargetResults } from './results.ts';
import { measureScalePoint, searchPath } from './scale.ts';
import { nodeTarget, workersTarget, type Served, type Target } from './targets.ts';
import { median } from './stats.ts';
import { GZIP_LEVEL, pageWeight } from './weight.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8795);
const ADMIN_PASSWORD = 'bench-caspian-2026';
/**
 * Lighthouse loads of each page. Lighthouse's own guide to variability (docs/variability.md in its
 * repository) runs a page five times and takes the median, which it finds about halves the spread;
 * with three, the card pages' FCP median moved by ±15 ms from one bench to the next on the same code.
 */
const LH_RUNS = 5;
/** The blank page's loads, each way (bench/blank-page.ts): a blank page loads in seconds, and its figure sets a budget. */
const BLANK_RUNS = 5;
const CONNECTIONS = 50;
const LOAD_S = 10;
// Latency is measured at a fixed offered rate well below every server's capacity (wrangler dev
// alone tops out near 500 req/s here), so it shows service time, not queueing. autocannon sends
// each second's share of a connection's requests one after the other at the start of the second:
// over 10 connections that made a burst of 10 at once, and p95 timed how fast a 10-deep queue
// drained (bench/speed-changes.md, 2026-11-27). Over one, no request ever waits behind another.
const FIXED_RATE = 100;
const RATE_CONNECTIONS = 1;
const RATE_S = 20;
// Each route and the servers it is compared with are loaded in turns, this many slices each
// (bench/load.ts, loadInTurns), each slice after a warm-up of its own, after one round not counted
// (bench/load-worker.ts says why).
const LOAD_TURNS = 4;
const TURN_WARMUP_S = 1;
// What a browser asks for: every static file is compared as it is sent, precompressed.
const BROWSER_HEADERS = { 'accept-encoding': 'br, gzip' };
// Long enough that at 1,500 cabins the first wave of 50 shared-CPU responses (~5 s) completes.
const SCALE_LOAD_S = 10;
const SCALE_SIZES = [15, 150, 1500];
const EDIT_TRIALS = 3;
const EDIT_POLL_MS = 200;
const EDIT_TIMEOUT_MS = 60_000;
// The channel stage (bench/channels.ts): every active cabin linked to a listing of the bench's own
// Avito stand-in, at these sizes; «Синхронизировать сейчас» this many times at each; a change
// waited for on Avito this long (the self-hosted timer ticks every 60 s), polled this often.
const CHANNEL_SIZES = [15, 150];
const CHANNEL_TRIALS = 5;
const CHANNEL_PUSH_TIMEOUT_MS = 90_000;
const CHANNEL_POLL_MS = 100;
// The edits stage (bench/edits.ts): a one-cabin and a site-wide edit at each size, on an
// instance of its own; BENCH_EDIT_SIZES=15,150 limits the sizes. A site-wide edit at 1,500 cabins
// self-hosted took up to 150 s on a busy machine (every page rendered), so an edit is waited for
// far longer than the `edit` stage's 60 s: a slow figure, not a missing one.
const EDITS_SIZES = process.env.BENCH_EDIT_SIZES?.split(',')
  .map(Number)
  .filter((n) => n > 0) ?? [15, 150, 1500];
const EDITS_TIMEOUT_MS = 300_000;
// «Сводка» and the tax report are timed this many times each, one request at a time (one owner).
const REPORT_REQUESTS = 40;
/** The stages on the target's main instance; the channel stage has one of its own. */
const MAIN_STAGES = ['lighthouse', 'interactions', 'api', 'edit', 'scale'];
/** Each interaction scenario's runs, each on a fresh phone (bench/interactions.ts). */
const INTERACTION_RUNS = 3;

const only = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const enabled = (part: string) => !only || only.includes(part);
const outDir = only ? path.join(ROOT, 'bench/tmp') : path.join(ROOT, 'bench');

const t0 = performance.now();
const log = (line: string) =>
  console.log(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const fmtMs = (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} ms`);
const errorText = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err));
/** A stage's error, saying so when the server itself is gone. */
const stageError = async (err: unknown, base: string) => {
  const alive = await fetch(`${base}/api/build-info`).then(
    (r) => r.ok,
    () => false,
  );
  return alive ? errorText(err) : `${errorText(err)} (the server stopped answering)`;
};

const machine = describeMachine();
const loadSampler = sampleLoad();
log(
  `${machine.cpuModel}, ${machine.cores} cores, ${machine.ramGb} GB, Node ${machine.node}, load ${machine.loadAverageAtStart}, CPU control ${machine.cpuControlMs?.start} ms`,
);

let running: Served | undefined;
const stopRunning = async () => {
  const s = running;
  running = undefined;
  await s?.stop();
};
process.once('SIGINT', () => void stopRunning().finally(() => process.exit(130)));

const results: Omit<BenchResults, 'budgets' | 'totalRuntimeS'> = {
  date: new Date().toISOString(),
  machine,
  settings: {
    lighthouseRuns: LH_RUNS,
    lighthouse: JSON.parse(await readFile(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version,
    chromium: execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    gzipLevel: GZIP_LEVEL,
    connections: CONNECTIONS,
    loadDurationS: LOAD_S,
    fixedRate: FIXED_RATE,
    rateConnections: RATE_CONNECTIONS,
    rateDurationS: RATE_S,
    caddy: execFileSync(CADDY, ['version'], { encoding: 'utf8' }).trim().split(' ')[0] ?? 'caddy',
    warmupS: TURN_WARMUP_S,
    loadTurns: LOAD_TURNS,
    scaleLoadDurationS: SCALE_LOAD_S,
    editPollMs: EDIT_POLL_MS,
    editTrials: EDIT_TRIALS,
    editTimeoutS: EDIT_TIMEOUT_MS / 1000,
    channelSyncTrials: CHANNEL_TRIALS,
    channelPushTimeoutS: CHANNEL_PUSH_TIMEOUT_MS / 1000,
    channelPollMs: CHANNEL_POLL_MS,
    editsSizes: EDITS_SIZES,
    editsTimeoutS: EDITS_TIMEOUT_MS / 1000,
  },
  targets: [],
};

/** The first hashed JavaScript file of the public site (/_astro/…, not the admin panel's): a static asset as a browser fetches it. */
async function hashedAsset(siteDir: string): Promise<string> {
  const files = (await readdir(path.join(siteDir, '_astro')))
    .filter((f) => f.endsWith('.js') && !/^Admin/i.test(f))
    .sort();
  if (!files[0]) throw new Error(`no hashed JavaScript under ${siteDir}/_astro`);
  return `/_astro/${files[0]}`;
}

/** A server started, or why it could not be: its rows then carry the error and the others run. */
const startedOrError = <T>(starting: Promise<T>) =>
  starting.then(
    (c) => ({ c, error: '' }),
    (err: unknown) => ({ c: null, error: errorText(err) }),
  );

/**
 * Load on one target, in two modes. At a fixed offered rate: each route in turns with the
 * runtime's control giving that route's own answer (bench/control-answer.ts), the static files
 * also with Caddy serving the same directory (LOAD_TURNS, bench/load.ts). At saturation
 * (50 connections, closed loop): req/s of the same, as figures; the static files' also against
 * their peer's.
 */
async function measureLoad(target: Target, served: Served, firstId: number): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  const asset = await hashedAsset(served.siteDir);
  const rate: LoadOptions = {
    connections: RATE_CONNECTIONS,
    durationS: RATE_S,
    warmupS: TURN_WARMUP_S,
    rate: FIXED_RATE,
    headers: BROWSER_HEADERS,
  };
  const saturation: LoadOptions = {
    connections: CONNECTIONS,
    durationS: LOAD_S,
    warmupS: TURN_WARMUP_S,
    headers: BROWSER_HEADERS,
  };
  const api = [
    { name: 'Catalogue API', path: '/api/cabins' },
    { name: 'Free dates of a cabin', path: `/api/cabins/${firstId}/availability` },
    { name: 'Search by dates', path: searchPath() },
  ];
  const files = [
    { name: 'Static page', path: '/cabins', static: true },
    { name: 'Hashed asset', path: asset, static: true },
  ];
  for (const mode of ['rate', 'saturation'] as const) {
    const opts = mode === 'rate' ? rate : saturation;
    const how = opts.rate
      ? `${opts.rate} req/s for ${opts.durationS} s`
      : `${opts.connections} connections for ${opts.durationS} s`;
    // Every route at a fixed rate has a budget against the control; at saturation only static
    // files, where the control is their peer (Workers).
    const controlled = (r: { static?: boolean }) =>
      mode === 'rate' || (!!r.static && staticPeer(target.key) === 'control');
    const control = await startedOrError(target.startControl());
    const caddy = await startedOrError(startCaddy(served.siteDir, PORT + 40));
    try {
      for (const r of [...api, ...files] as { name: string; path: string; static?: boolean }[]) {
        // Who is loaded in turns with this route, and the rows of those that cannot be.
        const turns: { row: Omit<LoadRow, 'result'>; base: string }[] = [
          { row: { ...r, server: 'ours', mode }, base: served.url },
        ];
        if (controlled(r)) {
          const row = { ...r, name: `Control with the answer of ${r.path}`, server: 'control' as const, mode };
          const given = control.c
            ? await giveControl({
                ours: served.url,
                control: control.c.url,
                path: r.path,
                how: target.controlAnswer,
                browserEncoding: BROWSER_HEADERS['accept-encoding'],
              }).then(
                () => '',
                (err: unknown) => errorText(err),
              )
            : control.error;
          if (given) rows.push({ ...row, result: null, error: given });
          else turns.push({ row, base: control.c!.url });
        }
        if (r.static) {
          const row = { ...r, server: 'caddy' as const, mode };
          if (caddy.c) turns.push({ row, base: caddy.c.url });
          else rows.push({ ...row, result: null, error: caddy.error });
        }
        log(`Load GET ${r.path}: ${how}, in ${LOAD_TURNS} turns with ${turns.map((t) => t.row.server).join(', ')}…`);
        try {
          const results = await loadInTurns(
            turns.map((t) => `${t.base}${r.path}`),
            opts,
            LOAD_TURNS,
          );
          for (const [i, { row }] of turns.entries()) {
            const result = results[i]!;
            rows.push({ ...row, result });
            log(
              `  ${row.server}: ${Math.round(result.rps)} req/s, p50 ${fmtMs(result.p50)}, p95 ${fmtMs(result.p95)}, p99 ${fmtMs(result.p99)}, non-2xx ${result.non2xx}`,
            );
          }
        } catch (err) {
          const error = await stageError(err, served.url);
          for (const { row } of turns) rows.push({ ...row, result: null, error });
          log(`  failed: ${error}`);
        }
      }
    } finally {
      await control.c?.stop();
      await caddy.c?.stop();
    }
  }
  return rows;
}

/** Everything measured on one target; a stage that fails is recorded and the next one runs. */
async function measureTarget(target: Target): Promise<TargetResults> {
  log(`=== ${target.label} ===`);
  const results: TargetResults = {
    key: target.key,
    label: target.label,
    serving: target.serving,
    stackStartS: 0,
    pages: [],
    api: [],
    editToLive: { trials: [], medianS: null, medianRebuiltS: null },
    scaling: { points: [] },
    channels: { points: [] },
  };
  try {
    if (enabled('channels')) await measureChannelStage(target, results);
    // The owner's reports at scale: a self-hosted budget, on a server and data of their own.
    if (target.key === 'node' && enabled('reports')) {
      log('Reports: «Сводка», the tourist tax and the CSV at 1,500 cabins and 50,000 bookings…');
      try {
        results.reports = await measureReports(REPORT_REQUESTS, (line) => log(line));
      } catch (err) {
        results.reports = { error: errorText(err) };
        log(`  failed: ${results.reports.error}`);
      }
    }
    if (target.key === 'node' && enabled('messages')) {
      log('Messages: «Сообщения» at 2,000 threads and 50,000 messages…');
      results.messages = await measureMessages(REPORT_REQUESTS, (line) => log(line)).catch((err: unknown) => ({
        error: errorText(err),
      }));
    }
    if (target.key === 'node' && enabled('today')) {
      log('Today: «Сегодня» at 150 cabins with the day’s arrivals, departures and tasks…');
      results.today = await measureToday(REPORT_REQUESTS, (line) => log(line)).catch((err: unknown) => ({
        error: errorText(err),
      }));
    }
    if (enabled('edits')) await measureEditsStage(target, results);
    // The whole self-hosted server's memory, on a server and data of its own.
    if (target.key === 'node' && enabled('memory')) {
      results.memory = await measureMemory({ port: PORT + 46, sizes: MEMORY_SIZES, log }).catch((err: unknown) => ({
        error: errorText(err),
      }));
    }
    if (!MAIN_STAGES.some(enabled)) return results;
    const started = performance.now();
    const served = await target.start(log);
    running = served;
    results.stackStartS = (performance.now() - started) / 1000;
    const base = served.url;
    log(`Site up at ${base} in ${results.stackStartS.toFixed(0)} s`);

    const cabins = (await fetch(`${base}/api/cabins`).then((r) => r.json())) as { id: number }[];
    const firstId = cabins[0]?.id ?? 1;
    // A demo guest's page (/b/{token}), the page guests open most, from a messenger on a phone.
    const guestPath = await cancellableGuestPath(base, await adminLogin(base, ADMIN_PASSWORD)).catch(() => undefined);
    const pages: { key: PageKey; name: string; path: string }[] = [
      { key: 'home', name: 'Home', path: '/' },
      { key: 'catalogue', name: 'Catalogue', path: '/cabins' },
      { key: 'cabin', name: 'Cabin page', path: `/cabin/${firstId}` },
      { key: 'contacts', name: 'Contacts', path: '/contacts' },
      { key: 'reviews', name: 'Reviews', path: '/reviews' },
      // A search a visitor would make: the results page, filled by the server.
      { key: 'search', name: 'Search results', path: searchPath().replace('/api/search', '/search') },
      { key: 'admin', name: 'Admin login', path: '/admin' },
      ...(guestPath ? [{ key: 'guest' as const, name: 'Guest page', path: guestPath }] : []),
    ];

    // The pages as a phone gets them: through the production edge's compression where there is one.
    const edge = enabled('lighthouse') && target.compressingEdge ? await startCompressingEdge(base, PORT + 41) : null;
    if (edge) log(`Pages loaded through the edge stand-in at ${edge.url}`);
    try {
      if (enabled('lighthouse'))
        for (const page of pages) {
          const url = `${edge?.url ?? base}${page.path}`;
          const status = await fetch(url).then(
            (r) => r.status,
            () => 0,
          );
          // The results and the log name a guest's page by its route: its token is a key.
          const result: PageResult = { ...page, path: page.key === 'guest' ? '/b/{token}' : page.path, status };
          results.pages.push(result);
          if (status !== 200) {
            result.error = `HTTP ${status}: page missing`;
            log(`Lighthouse ${result.path}: skipped, ${result.error}`);
            continue;
          }
          log(`Lighthouse ${result.path} (${LH_RUNS} runs)…`);
          try {
            // /search and a guest's page are noindex on purpose: Lighthouse's is-crawlable audit is left out for them.
            const noindex = page.key === 'search' || page.key === 'guest';
            result.lighthouse = await lighthousePage(url, LH_RUNS, log, noindex ? ['is-crawlable'] : []);
            const { scores, lcpMs, tbtMs, cls } = result.lighthouse;
            log(
              `  ${JSON.stringify(scores)} LCP ${Math.round(lcpMs)} ms TBT ${Math.round(tbtMs)} ms CLS ${cls.toFixed(3)}`,
            );
          } catch (err) {
            result.error = await stageError(err, base);
            log(`  failed: ${result.error}`);
            continue;
          }
          try {
            result.weight = await pageWeight(result.lighthouse.medianRun.requests);
            log(
              `  ${result.weight.requests} requests, HTML ${result.weight.htmlGzip} B gz, JS ${result.weight.jsGzip} B gz in ${result.weight.jsFiles} files, images ${result.weight.imageBytes} B`,
            );
          } catch (err) {
            result.weightError = `weight not measured: ${await stageError(err, base)}`;
            log(`  ${result.weightError}`);
          }
          // Lighthouse's requests and the weight's largest files name the page by its address.
          if (result.path !== page.path)
            Object.assign(result, JSON.parse(JSON.stringify(result).replaceAll(page.path, result.path)));
        }
      if (enabled('lighthouse')) {
        try {
          const blank = await measureBlankControl(served.siteDir, edge?.url ?? base, PORT + 42, BLANK_RUNS, log);
          results.blankControl = blank;
          log(
            `  blank page LCP/FCP: ours ${Math.round(blank.ours.lcpMs)}/${Math.round(blank.ours.fcpMs)} ms, Caddy ${Math.round(blank.caddy.lcpMs)}/${Math.round(blank.caddy.fcpMs)} ms`,
          );
        } catch (err) {
          results.blankControl = { error: await stageError(err, base) };
          log(`  blank page not measured: ${results.blankControl.error}`);
        }
      }
    } finally {
      await edge?.stop();
    }
    if (enabled('lighthouse')) {
      log('Admin panel after sign-in: JavaScript loaded…');
      try {
        results.adminPanel = await signedInPanelWeight(base, await adminLogin(base, ADMIN_PASSWORD));
        log(`  ${results.adminPanel.jsFiles} files, ${results.adminPanel.jsGzip} B gz`);
      } catch (err) {
        results.adminPanel = { error: await stageError(err, base) };
        log(`  failed: ${results.adminPanel.error}`);
      }
    }

    if (enabled('interactions')) {
      try {
        const guest = guestPath;
        results.interactions = await measureInteractions(
          base,
          { cabin: `/cabin/${firstId}`, search: pages.find((p) => p.key === 'search')!.path, guest },
          INTERACTION_RUNS,
          log,
        );
        for (const step of results.interactions.steps)
          log(`  ${step.page} · ${step.name}: ${fmtMs(step.medianMs)} (slowest ${fmtMs(step.maxMs)})`);
        log(`  the card ready after it shows: ${fmtMs(results.interactions.cardReadyMs)}`);
      } catch (err) {
        results.interactions = { error: await stageError(err, base) };
        log(`  interactions not measured: ${results.interactions.error}`);
      }
    }

    if (enabled('api')) {
      results.api.push(...(await measureLoad(target, served, firstId)));
    }

    if (enabled('edit')) {
      try {
        const cookie = await adminLogin(base, ADMIN_PASSWORD);
        for (let i = 1; i <= EDIT_TRIALS; i++) {
          await served.waitIdle();
          const title = `Каспий ждёт вас, замер ${i} ${Date.now()}`;
          log(`Edit-to-live ${i}/${EDIT_TRIALS}…`);
          const trial = await editToLive(base, cookie, title, { pollMs: EDIT_POLL_MS, timeoutMs: EDIT_TIMEOUT_MS });
          results.editToLive.trials.push(trial);
          log(
            `  live on / after ${trial.seconds?.toFixed(1) ?? '—'} s (rebuilt after ${trial.rebuiltSeconds?.toFixed(1) ?? '—'} s)${trial.note ? `: ${trial.note}` : ''}`,
          );
        }
        // A trial that never went live ranks above every other: the median still exists if most did.
        const medianOrNull = (xs: (number | null)[]) => {
          const m = median(xs.map((x) => x ?? Infinity));
          return Number.isFinite(m) ? m : null;
        };
        results.editToLive.medianS = medianOrNull(results.editToLive.trials.map((t) => t.seconds));
        results.editToLive.medianRebuiltS = medianOrNull(results.editToLive.trials.map((t) => t.rebuiltSeconds));
      } catch (err) {
        results.editToLive.error = await stageError(err, base);
        log(`  failed: ${results.editToLive.error}`);
      }
    }

    if (enabled('scale')) {
      try {
        log(
          "Growth: the owner's pricing rules (weekends, guests, single dates, discounts, extras) on every cabin first…",
        );
        await applyPricingRules(base, await adminLogin(base, ADMIN_PASSWORD));
        for (const size of SCALE_SIZES) {
          log(`Growth: ${size} active cabins: grow, rebuild, load /api/cabins…`);
          const point = await measureScalePoint(
            served,
            size,
            {
              connections: CONNECTIONS,
              durationS: SCALE_LOAD_S,
              // The serial requests just before warm the worker up; an autocannon warm-up would leave
              // slow in-flight requests running into the measured window at 1,500 cabins.
              warmupS: 0,
            },
            ADMIN_PASSWORD,
          );
          results.scaling.points.push(point);
          log(
            `  ${point.activeCabins} active: build ${point.buildS.toFixed(1)} s (${point.htmlPages} pages), /api/cabins ${point.apiCabinsBytes} B, alone ${fmtMs(point.serial.p50)}; 50 connections p95 ${fmtMs(point.load.p95)}, ${Math.round(point.load.rps)} req/s; search alone ${fmtMs(point.search?.serial.p95 ?? NaN)} p95, loaded ${fmtMs(point.search?.load.p95 ?? NaN)}; occupancy alone ${fmtMs(point.occupancy?.serial.p95 ?? NaN)} p95`,
          );
        }
      } catch (err) {
        results.scaling.error = await stageError(err, base);
        log(`  failed: ${results.scaling.error}`);
      }
    }
  } catch (err) {
    results.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
    log(`${target.label}: stopped early: ${results.error}`);
  } finally {
    await stopRunning();
  }
  return results;
}

/**
 * The channel stage, on a fresh instance of the target of its own, started before the main one
 * with the bench's Avito stand-in: it grows the catalogue to 150 cabins and gives each Avito
 * bookings, which would change what the growth stage measures at 15 cabins and what its searches
 * find. A failed sync is the stage's error, never a fast figure.
 */
async function measureChannelStage(target: Target, results: TargetResults) {
  log(`Channels: a fresh instance with the bench's Avito stand-in (${Math.max(...CHANNEL_SIZES)} listings)…`);
  let base = '';
  const avito = await startBenchAvito(PORT + 44, Math.max(...CHANNEL_SIZES));
  try {
    const started = performance.now();
    const served = await target.start(log, { avitoApiUrl: avito.apiUrl });
    running = served;
    base = served.url;
    results.channels.startS = (performance.now() - started) / 1000;
    await measureChannels(
      served,
      avito,
      {
        sizes: CHANNEL_SIZES,
        trials: CHANNEL_TRIALS,
        pushTimeoutMs: CHANNEL_PUSH_TIMEOUT_MS,
        pollMs: CHANNEL_POLL_MS,
        adminPassword: ADMIN_PASSWORD,
        log,
      },
      results.channels.points,
    );
  } catch (err) {
    results.channels.error = base ? await stageError(err, base) : errorText(err);
    log(`  failed: ${results.channels.error}`);
  } finally {
    await stopRunning();
    await avito.close();
  }
}

/**
 * The edits stage (bench/edits.ts), on a fresh instance of the target of its own: it grows the
 * catalogue, which the other stages measure at their own sizes.
 */
async function measureEditsStage(target: Target, results: TargetResults) {
  log(`Edits: a fresh instance (sizes ${EDITS_SIZES.join(', ')})…`);
  const edits: NonNullable<TargetResults['edits']> = { sizes: EDITS_SIZES, points: [] };
  results.edits = edits;
  let base = '';
  try {
    const started = performance.now();
    const served = await target.start(log);
    running = served;
    base = served.url;
    edits.startS = (performance.now() - started) / 1000;
    await measureEdits(
      served,
      {
        sizes: EDITS_SIZES,
        trials: EDIT_TRIALS,
        pollMs: EDIT_POLL_MS,
        timeoutMs: EDITS_TIMEOUT_MS,
        adminPassword: ADMIN_PASSWORD,
        log,
      },
      edits.points,
    );
  } catch (err) {
    edits.error = base ? await stageError(err, base) : errorText(err);
    log(`  failed: ${edits.error}`);
  } finally {
    await stopRunning();
  }
}

// Self-hosted first (the target a Russian owner uses), then Workers; BENCH_TARGETS=node or workers runs one.
const chosen = process.env.BENCH_TARGETS?.split(',').map((s) => s.trim()) ?? ['node', 'workers'];
for (const target of [nodeTarget(PORT + 20, ADMIN_PASSWORD), workersTarget(PORT, ADMIN_PASSWORD)]) {
  if (chosen.includes(target.key)) results.targets.push(await measureTarget(target));
}

results.machine.loadAverageDuring = loadSampler.stop();
if (results.machine.cpuControlMs) results.machine.cpuControlMs.end = cpuControlMs();
const final: BenchResults = {
  ...results,
  budgets: checkBudgets(results),
  totalRuntimeS: (performance.now() - t0) / 1000,
};
await mkdir(outDir, { recursive: true });
await writeFile(path.join(outDir, 'results.json'), `${JSON.stringify(final, null, 2)}\n`);
await writeFile(path.join(outDir, 'RESULTS.md'), renderReport(final));
const failed = final.budgets.filter((b) => !b.pass);
log(
  `Done in ${(final.totalRuntimeS / 60).toFixed(1)} min: ${final.budgets.length - failed.length}/${final.budgets.length} budgets met. Wrote ${path.relative(ROOT, outDir)}/RESULTS.md and results.json.`,
);
for (const b of failed) log(`  ❌ ${b.figure} ${b.where}: ${b.value} (budget ${b.budget})`);
