import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUDGETS, PUBLIC_PAGES, clsShown, devServerAllowance, documentAsSent, staticPeer } from './budgets.ts';
import type { BenchResults, BudgetCheck, LoadRow, PageResult, TargetResults } from './results.ts';

const ok = (pass: boolean) => (pass ? '✅' : '❌');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '—');
const ms1 = (v: number | null) => (v !== null && Number.isFinite(v) ? `${v.toFixed(1)} ms` : '—');
const ms2 = (v: number | null) => (v !== null && Number.isFinite(v) ? `${v.toFixed(2)} ms` : '—');
/** A percentile of a load run, or what it means when no response completed in time. */
const pct = (v: number | null, durationS: number) => (v === null ? `> ${durationS} s (none completed)` : ms1(v));
const pct2 = (v: number | null, durationS: number) => (v === null ? `> ${durationS} s (none completed)` : ms2(v));
const s1 = (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} s`);

/** A Markdown table's header row (its columns joined by ` | `) and the row under it that makes it one. */
const tableHead = (columns: string) => [
  `| ${columns} |`,
  `| ${columns
    .split(' | ')
    .map(() => '---')
    .join(' | ')} |`,
];
/** A section of a target, and the paragraph that says its stage failed. */
const heading = (title: string) => [`### ${title}`, ''];
const stageFailed = (error: string) => [`Failed: ${error}`, ''];

/** A target's budget checks: `find` looks one up, `cell` marks a value with its check's verdict. */
type Checks = {
  find: (figure: string, where: string) => BudgetCheck | undefined;
  cell: (value: string, check?: BudgetCheck) => string;
};

/** bench/RESULTS.md: what was measured, on what, against which budget, both targets side by side. */
export function renderReport(r: BenchResults): string {
  const failed = r.budgets.filter((b) => !b.pass);
  const m = r.machine;
  const L: string[] = [];

  L.push('# «Каспий» benchmark results', '');
  L.push(
    'Written by `npm run bench` (bench/run.ts); the raw figures are in `bench/results.json`. A benchmark, not a test: it never fails CI. Both production targets are measured in the same run, one after the other, on the same machine: the self-hosted Node server as `npm run serve` runs it, and the Cloudflare Workers build as `wrangler dev` serves it locally.',
    '',
  );
  L.push(`- **Date:** ${r.date}`);
  L.push(`- **Machine:** ${m.cpuModel}, ${m.cores} cores, ${m.ramGb} GB RAM, ${m.platform}; Node ${m.node}`);
  const during = m.loadAverageDuring
    ? `; during the run: mean ${m.loadAverageDuring.mean}, max ${m.loadAverageDuring.max}`
    : '';
  L.push(
    `- **1-minute load average:** ${m.loadAverageAtStart} at the start${during} (on ${m.cores} cores; other work on the machine slows every figure)`,
  );
  if (m.cpuControlMs)
    L.push(
      `- **CPU control:** ${m.cpuControlMs.start} ms at the start${m.cpuControlMs.end ? `, ${m.cpuControlMs.end} ms at the end` : ''} (a fixed loop, bench/machine.ts: compare runs only when these are close)`,
    );
  L.push(`- **Total bench runtime:** ${(r.totalRuntimeS / 60).toFixed(1)} min`);
  L.push(`- **Budgets met:** ${r.budgets.length - failed.length} of ${r.budgets.length}`, '');

  L.push('## Side by side', '');
  L.push(...tableHead(['figure', ...r.targets.map((t) => t.label)].join(' | ')));
  const row = (figure: string, cell: (t: TargetResults) => string) =>
    L.push(`| ${figure} | ${r.targets.map(cell).join(' | ')} |`);
  const page = (t: TargetResults, key: string) => t.pages.find((p) => p.key === key);
  /** A row for each public page, named by the first target's path for it. */
  const pageRows = (figure: string, after: string, cellOf: (p: PageResult | undefined) => string) => {
    for (const key of PUBLIC_PAGES)
      row(`${figure} \`${page(r.targets[0]!, key)?.path ?? key}\`${after}`, (t) => cellOf(page(t, key)));
  };
  pageRows('Lighthouse performance', '', (p) => String(p?.lighthouse?.scores.performance ?? '—'));
  pageRows('Transferred', ' (all requests, as sent)', (p) => (p?.weight ? kb(p.weight.wireBytes) : '—'));
  pageRows('LCP / FCP', '', (p) => {
    const lh = p?.lighthouse;
    return lh ? `${ms(lh.lcpMs)} / ${ms(lh.fcpMs)}` : '—';
  });
  const load = (t: TargetResults, server: LoadRow['server'], mode: LoadRow['mode'], p?: string) =>
    t.api.find((a) => a.server === server && a.mode === mode && (p === undefined || a.path === p))?.result;
  const rate = r.settings.fixedRate;
  const p95Row = (what: string, server: LoadRow['server'], p: string) =>
    row(`${what} p95 at ${rate} req/s`, (t) => ms2(load(t, server, 'rate', p)?.p95 ?? null));
  const rpsRow = (what: string, server: LoadRow['server'], p: string) =>
    row(`${what} req/s at saturation`, (t) => String(Math.round(load(t, server, 'saturation', p)?.rps ?? 0)));
  p95Row('`GET /api/cabins`', 'ours', '/api/cabins');
  p95Row('control giving the same answer (same runtime)', 'control', '/api/cabins');
  p95Row('static page `/cabins`', 'ours', '/cabins');
  p95Row('Caddy, same files: `/cabins`', 'caddy', '/cabins');
  rpsRow('`GET /api/cabins`', 'ours', '/api/cabins');
  rpsRow('static page `/cabins`', 'ours', '/cabins');
  rpsRow('Caddy, same files: `/cabins`', 'caddy', '/cabins');
  row('edit-to-live (median)', (t) => s1(t.editToLive.medianS));
  for (const size of [0, 1, 2]) {
    row(`full site build, ${r.targets[0]?.scaling.points[size]?.activeCabins ?? '—'} cabins`, (t) =>
      t.scaling.points[size] ? `${t.scaling.points[size]!.buildS.toFixed(1)} s` : '—',
    );
  }
  for (const size of r.settings.editsSizes ?? []) {
    const pt = (t: TargetResults) => t.edits?.points.find((p) => p.targetActive === size);
    row(`one-cabin edit to live, ${size} cabins (median / slowest)`, (t) =>
      pt(t) ? `${s1(pt(t)!.cabin.medianS)} / ${s1(pt(t)!.cabin.maxS)}` : '—',
    );
    row(`site-wide edit to live, ${size} cabins (median / slowest)`, (t) =>
      pt(t) ? `${s1(pt(t)!.siteWide.medianS)} / ${s1(pt(t)!.siteWide.maxS)}` : '—',
    );
  }
  const channelPoint = (t: TargetResults) => t.channels.points.find((p) => p.cabins === BUDGETS.channelBudgetCabins);
  row(`«Синхронизировать сейчас», ${BUDGETS.channelBudgetCabins} cabins (median / slowest)`, (t) => {
    const p = channelPoint(t);
    return p ? `${s1(p.syncMedianS)} / ${s1(p.syncMaxS)}` : '—';
  });
  row(`a block reaching Avito, ${BUDGETS.channelBudgetCabins} cabins`, (t) => {
    const p = channelPoint(t);
    return p?.pushHow
      ? `${s1(p.pushAfterChangeS ?? null)} (${p.pushHow === 'timer' ? "the server's timer" : 'tick asked for at once'})`
      : '—';
  });
  L.push('');

  L.push('## Budgets', '');
  // The last column is the verdict's, without a header.
  L.push('| target | figure | where | value | budget | |', '| --- | --- | --- | --- | --- | --- |');
  for (const b of r.budgets)
    L.push(`| ${b.target} | ${b.figure} | \`${b.where}\` | ${b.value} | ${b.budget} | ${ok(b.pass)} |`);
  L.push('');

  for (const t of r.targets) L.push(...renderTarget(r, t));
  // What was changed for speed and what each change gained: written by hand, kept with the figures.
  L.push(readFileSync(path.join(import.meta.dirname, 'speed-changes.md'), 'utf8').trim(), '');
  return L.join('\n');
}

function renderTarget(all: BenchResults, t: TargetResults): string[] {
  const r = { ...all, ...t };
  const find = (figure: string, where: string): BudgetCheck | undefined =>
    all.budgets.find((b) => b.target === t.label && b.figure === figure && b.where === where);
  const cell = (value: string, check?: BudgetCheck) => (check ? `${value} ${ok(check.pass)}` : value);
  const checks: Checks = { find, cell };
  const L: string[] = [];
  L.push(`## ${t.label}`, '');
  L.push(
    `Served by ${t.serving}; started with the demo content and its first build in ${t.stackStartS.toFixed(0)} s.`,
    '',
  );
  if (t.error) L.push(`Stopped early: ${t.error}`, '');
  L.push(`### Lighthouse (mobile, simulated throttling, median of ${r.settings.lighthouseRuns})`, '');
  L.push(
    `Lighthouse ${r.settings.lighthouse} with its default mobile emulation and simulated slow 4G, in ${r.settings.chromium} (headless), a fresh browser each run. Each figure is the median of the runs on its own. Budgets: performance ≥ ${BUDGETS.performance} and the other categories ${BUDGETS.otherCategories} on public pages (the admin page is reported, not budgeted, except CLS); CLS ${BUDGETS.cls} as Lighthouse shows it (three decimals). LCP ≤ ${BUDGETS.lcpMs} ms and FCP ≤ ${BUDGETS.fcpMs} ms on every public page (median of the runs${BUDGETS.devServerAllowance.includes(t.key) ? "; here plus the dev server's own cost, measured on a blank page below the table" : ''}); TBT has no budget of its own. The search results page is \`noindex\` on purpose, which Lighthouse's SEO audit «is-crawlable» always fails: that one audit is left out of its SEO score.`,
    '',
  );
  L.push(
    ...tableHead(
      'page | performance | accessibility | best practices | SEO | LCP | FCP | TBT | CLS | LCP / FCP per run | server time the model assumed, per run',
    ),
  );
  for (const p of r.pages) {
    const lh = p.lighthouse;
    if (!lh) {
      L.push(`| \`${p.path}\` | ${p.error ?? `HTTP ${p.status}`} ❌ | | | | | | | | |`);
      continue;
    }
    const sc = (cat: 'performance' | 'accessibility' | 'best-practices' | 'seo', figure: string) =>
      cell(
        lh.scores[cat] === null ? '—' : String(lh.scores[cat]),
        PUBLIC_PAGES.includes(p.key) ? find(figure, p.path) : undefined,
      );
    L.push(
      `| \`${p.path}\` | ${sc('performance', 'Lighthouse performance')} | ${sc('accessibility', 'Lighthouse accessibility')} | ${sc('best-practices', 'Lighthouse best-practices')} | ${sc('seo', 'Lighthouse seo')} | ${cell(ms(lh.lcpMs), find('LCP', p.path))} | ${cell(ms(lh.fcpMs), find('FCP', p.path))} | ${ms(lh.tbtMs)} | ${cell(String(clsShown(lh.cls)), find('CLS', p.path))} | ${lh.perRun.map((x) => `${ms(x.lcpMs)} / ${ms(x.fcpMs)}`).join(', ')} | ${lh.perRun.map((x) => (x.serverMs == null ? '—' : `${x.serverMs.toFixed(1)} ms`)).join(', ')} |`,
    );
  }
  L.push('');
  const blank = t.blankControl;
  if (blank && 'error' in blank)
    L.push(`Blank page (the control of the page loads, bench/blank-page.ts): not measured: ${blank.error}`, '');
  else if (blank) {
    L.push(
      `Blank page (the control of the page loads, bench/blank-page.ts: a heading and a line of text, loaded the same way): LCP / FCP ${ms(blank.ours.lcpMs)} / ${ms(blank.ours.fcpMs)} through this target, ${ms(blank.caddy.lcpMs)} / ${ms(blank.caddy.fcpMs)} from Caddy's file_server, median of ${blank.runs} loads each, in turn.` +
        (BUDGETS.devServerAllowance.includes(t.key)
          ? ` What the blank page loses here is the local serving path's own cost, which Cloudflare's edge does not add in production: the LCP and FCP budgets above are ${Math.round(devServerAllowance(t))} ms higher on this target (the first paint's difference: a text page's LCP is sometimes a later paint, which makes the blank page's LCP move by more).`
          : ' The budgets here are not adjusted: this server is what visitors reach.'),
      '',
    );
  }
  const benchIdx = r.pages.flatMap((p) => (p.lighthouse ? [p.lighthouse.benchmarkIndex] : []));
  if (benchIdx.length) {
    L.push(
      `Lighthouse's CPU benchmark index on this machine: ${Math.round(Math.min(...benchIdx))}–${Math.round(Math.max(...benchIdx))} (page medians). Lighthouse's CLI warns at 1000 or below that the host CPU is slower than its 4× CPU slowdown assumes, which overstates TBT and so lowers the performance score.`,
    );
    const retried = r.pages.reduce((n, p) => n + (p.lighthouse?.retries ?? 0), 0);
    if (retried) L.push('', `${retried} run(s) that Lighthouse itself aborted were made again.`);
    const warned = r.pages.filter((p) => p.lighthouse?.warnings.length);
    if (warned.length) {
      L.push('', 'Lighthouse warnings:', '');
      for (const p of warned)
        L.push(`- \`${p.path}\`: ${p.lighthouse!.warnings.map((w) => w.replace(/\s+/g, ' ')).join(' ')}`);
    }
    L.push('');
  }
  const withFailures = r.pages.filter((p) => p.lighthouse?.medianRun.failing.length);
  if (withFailures.length) {
    L.push('Audits that cost points (median run):', '');
    for (const p of withFailures) {
      const items = p
        .lighthouse!.medianRun.failing.filter((a) => a.category !== 'performance' || (a.score ?? 0) < 0.9)
        .map((a) => `${a.category}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
      if (items.length) L.push(`- \`${p.path}\`: ${items.join('; ')}`);
    }
    L.push('');
  }

  L.push(...heading('Page weight'));
  L.push(
    `From the network records of each page's median Lighthouse run (so: what a phone-sized viewport actually loaded, images chosen from srcset for 412 px at DPR 1.75): every request is fetched again from the local server and measured here, gzipped by us, and once more as the server sends it to a browser taking brotli and gzip ("as sent"; on Workers through the edge stand-in, since wrangler dev does not compress). HTML, JavaScript, CSS and other text are gzipped by node:zlib at level ${r.settings.gzipLevel}; images and fonts count as stored. "Inline JS" is the code of inline \`<script>\` elements (also inside the HTML figure). Budgets: HTML ≤ ${BUDGETS.htmlGzipKb} KB gzipped on the home, catalogue and cabin pages; on every public page, the document as the browser received it in Lighthouse's median run (headers and the target's own compression included: "HTML as sent") ≤ ${BUDGETS.firstRoundTripBytes} B, the first round trip of a new connection (10 TCP segments), which a page past it pays with one more round trip before its first paint; no JavaScript files on the catalogue; ≤ ${BUDGETS.islandJsGzipKb} KB of JavaScript gzipped (files + inline) where React islands run.`,
    '',
  );
  L.push(
    ...tableHead(
      'page | requests | as sent | HTML as sent | HTML gzipped | JS files gzipped | inline JS gzipped | CSS files gzipped | images | fonts | largest resources',
    ),
  );
  for (const p of r.pages) {
    const w = p.weight;
    if (!w) {
      L.push(`| \`${p.path}\` | ${p.weightError ?? p.error ?? `HTTP ${p.status}`} ❌ | | | | | | | | | |`);
      continue;
    }
    const bytes = documentAsSent(p.lighthouse);
    const sent = bytes === undefined ? '—' : cell(`${bytes} B`, find('HTML as sent, headers included', p.path));
    const js = cell(
      `${w.jsFiles} · ${kb(w.jsGzip)}`,
      find('JavaScript files loaded', p.path) ?? find('JavaScript gzipped (files + inline)', p.path),
    );
    L.push(
      `| \`${p.path}\` | ${w.requests} | ${kb(w.wireBytes)} | ${sent} | ${cell(kb(w.htmlGzip), find('HTML gzipped', p.path))} | ${js} | ${kb(w.inlineJsGzip)} | ${kb(w.cssGzip)} | ${w.images} · ${kb(w.imageBytes)} | ${kb(w.fontBytes)} | ${w.largest
        .slice(0, 3)
        .map((x) => `\`${x.url}\` ${kb(x.bytes)}`)
        .join(', ')} |`,
    );
  }
  L.push('');
  const panel = r.adminPanel;
  if (panel) {
    L.push(
      'error' in panel
        ? `Admin panel after sign-in: not measured (${panel.error}).`
        : `Admin panel after sign-in (phone-sized page, first tab «Домики», Chromium without throttling): ${panel.jsFiles} JavaScript files, ${kb(panel.jsGzip)} gzipped + ${kb(panel.inlineJsGzip)} inline. No budget of its own: the login page above is what a visitor to the admin path loads; the panel's code (its forms and their checks) follows once the owner starts signing in.`,
      '',
    );
  }
  const external = r.pages.filter((p) => p.weight?.external.length);
  if (external.length) {
    L.push(
      'Requests to other hosts (counted in "requests", not weighed: the bench browser resolves only 127.0.0.1):',
      '',
    );
    for (const p of external) L.push(`- \`${p.path}\`: ${p.weight!.external.map((u) => `\`${u}\``).join(', ')}`);
    L.push('');
  }

  L.push(...renderInteractions(t));
  L.push(...renderLoad(r, t, checks));
  L.push(...heading('Edit-to-live'));
  L.push(
    `Sign in (\`POST /api/admin/login\`), \`PUT /api/settings\` with a new \`heroTitle\`, then poll \`/\` every ${r.settings.editPollMs} ms until it shows the new title (at most ${r.settings.editTimeoutS} s); median of ${r.settings.editTrials}, a trial that never went live counting as the slowest. "Rebuilt" is when \`/build.json\` first named a content version that includes the save. Budget ≤ ${BUDGETS.editToLiveS} s with the demo content.`,
    '',
  );
  const et = r.editToLive;
  if (et.error) L.push(...stageFailed(et.error));
  L.push(...tableHead('trial | title on `/` | rebuilt | note'));
  et.trials.forEach((t, i) => L.push(`| ${i + 1} | ${s1(t.seconds)} | ${s1(t.rebuiltSeconds)} | ${t.note ?? ''} |`));
  L.push(
    `| **median** | ${cell(s1(et.medianS), find('Edit-to-live (median)', 'admin save → /'))} | ${s1(et.medianRebuiltS)} | |`,
    '',
  );

  L.push(...heading('How cost grows with the catalogue'));
  L.push(
    `Before growing, every demo cabin is given the pricing an owner who sells like the paid engines would set (bench/pricing-rules.ts: a weekend price, two guests in the price and 500 ₽ for each further one, three single dates, a long-stay and an early-booking discount, a mandatory and an optional extra), so search prices every result with every rule. Extra cabins are clones of the demo cabins (same texts, rules and \`/media/\` photos, numbered names) written straight into the target's database. Build = one full rebuild by the target's rebuilder into the served directory (Astro's image cache warm). \`GET /api/cabins\` under the same ${r.settings.connections} connections for ${r.settings.scaleLoadDurationS} s (no autocannon warm-up: the serial requests just before warm the server). "Alone" is the same request one at a time (no queueing), up to ${Math.max(0, ...r.scaling.points.map((p) => p.serial.requests))} requests or 10 s after 3 that are not counted. "Responses" counts those completed within the window; requests still waiting when it closed are not in the percentiles.`,
    '',
  );
  if (r.scaling.error) L.push(...stageFailed(r.scaling.error));
  L.push(
    ...tableHead(
      'active cabins (total) | HTML pages built | build | `/api/cabins` size (gzipped) | alone: p50 / p95 | 50 conn.: responses | req/s | p50 | p95 | p99',
    ),
  );
  for (const pt of r.scaling.points) {
    const d = pt.load.durationS;
    const p95 = pt.load.p95;
    L.push(
      `| ${pt.activeCabins} (${pt.totalCabins}) | ${pt.htmlPages} | ${pt.buildS.toFixed(1)} s | ${kb(pt.apiCabinsBytes)} (${kb(pt.apiCabinsGzip)}) | ${ms1(pt.serial.p50)} / ${ms1(pt.serial.p95)} (${pt.serial.requests} req.) | ${pt.load.requests} | ${Math.round(pt.load.rps)} | ${pct(pt.load.p50, d)} | ${pct(p95, d)} | ${pct(pt.load.p99, d)} |`,
    );
  }
  L.push('');
  L.push(
    `Search (\`GET /api/search\`, 3 nights a month ahead, 2 guests) and the owner's «Шахматка» (\`GET /api/admin/occupancy\`, 31 days) at the same sizes: alone one request at a time after 3 that are not counted, each search for other dates (made anew, never a kept answer); search also under the same ${r.settings.connections} connections, all asking the same stay.`,
    '',
  );
  L.push(
    ...tableHead(
      'active cabins | search: free / apart | search alone: p50 / p95 | search 50 conn.: req/s | p95 | occupancy alone: p50 / p95',
    ),
  );
  for (const pt of r.scaling.points) {
    const sr = pt.search;
    const oc = pt.occupancy;
    L.push(
      `| ${pt.activeCabins} | ${sr ? `${sr.results} / ${sr.others}` : '—'} | ${sr ? `${ms1(sr.serial.p50)} / ${ms1(sr.serial.p95)}` : '—'} | ${sr ? Math.round(sr.load.rps) : '—'} | ${sr ? pct(sr.load.p95, sr.load.durationS) : '—'} | ${oc ? `${ms1(oc.serial.p50)} / ${ms1(oc.serial.p95)}` : '—'} |`,
    );
  }
  L.push('');
  L.push(...renderChannels(r, t, checks));
  L.push(...renderReports(t, checks));
  L.push(...renderEdits(r, t, checks));
  L.push(...renderMemory(t, checks));
  return L;
}

/** The edits stage (bench/edits.ts): a one-cabin and a site-wide edit at each size. */
function renderEdits(r: BenchResults, t: TargetResults, { find, cell }: Checks): string[] {
  const e = t.edits;
  if (!e) return [];
  const st = r.settings;
  const budgets = Object.entries(BUDGETS.oneCabinEditS)
    .map(([n, s]) => `≤ ${s} s at ${n} cabins`)
    .join(', ');
  const L = heading('Edits: what one change costs');
  L.push(
    `On an instance of its own${e.startS === undefined ? '' : ` (up in ${e.startS.toFixed(0)} s)`}. At each size the catalogue is grown as above, the site rebuilt once ("rebuild after growing", not an edit: the live build the edits start from; where the build renders only what changed, just the new cabins' pages and the lists) and the builder left idle; then, each after the builder is idle again, ${st.editTrials} one-cabin edits (\`PUT /api/cabins/:id\` with a new \`pricePerNight\` on the first cabin, live when its page \`/cabin/:id\` shows the new price as it prints it, «31 001 ₽») and ${st.editTrials} site-wide edits (\`PUT /api/settings\` with a new \`phone\`, which the header of every page shows, live when both \`/contacts\` and the last cabin's page show it). Pages are polled every ${st.editPollMs} ms without cache, at most ${st.editsTimeoutS ?? '—'} s; no polled page may show the new text before the save. "Rebuilt" is when \`/build.json\` first named a content version that includes the save. Median and slowest of the trials, a trial that never went live counting as the slowest. ${t.key === 'node' ? `Budgets: a one-cabin edit ${budgets} (median); a site-wide edit ≤ ${BUDGETS.editToLiveS} s at ${BUDGETS.siteWideEditBudgetCabins} cabins, reported without a budget above that.` : 'Reported without budgets on this target.'} Other work on the machine (builds and tests of other engineers) slows every figure.`,
    '',
  );
  if (e.error) L.push(...stageFailed(e.error));
  L.push(
    ...tableHead(
      'active cabins (total) | rebuild after growing | edit | live: median | slowest | each trial | rebuilt: median / slowest',
    ),
  );
  for (const p of e.points) {
    for (const [what, s, figure] of [
      ['one cabin', p.cabin, 'One-cabin edit to live (median)'],
      ['site-wide', p.siteWide, 'Site-wide edit to live (median)'],
    ] as const) {
      const each = s.trials
        .map((x) => (x.seconds === null ? `— (${x.note ?? 'not live'})` : x.seconds.toFixed(1)))
        .join(', ');
      L.push(
        `| ${p.activeCabins} (${p.totalCabins}) | ${s1(p.fullBuildS)} | ${what}: \`${s.save}\` → ${s.pages.map((x) => `\`${x}\``).join(', ')} | ${cell(s1(s.medianS), find(figure, `${p.targetActive} cabins`))} | ${s1(s.maxS)} | ${each} | ${s1(s.medianRebuiltS)} / ${s1(s.maxRebuiltS)} |`,
      );
    }
  }
  L.push('');
  return L;
}

/** The owner's reports at scale (bench/reports.ts): «Сводка» per period, the tax report and the CSV. */
function renderReports(t: TargetResults, { find, cell }: Checks): string[] {
  const rep = t.reports;
  if (!rep) return [];
  const L = heading("The owner's reports at scale");
  if ('error' in rep) return [...L, ...stageFailed(rep.error)];
  L.push(
    `On a self-hosted server of its own (a temporary DATA_DIR), seeded by SQL with ${rep.scale.cabins} cabins, ${rep.scale.bookings} bookings over 2024–2026 (priced lines, four in five confirmed, most paid through ЮKassa, some refunded), ${rep.scale.avitoStays} Avito stays and ${rep.scale.feedEvents} imported events (seeded in ${rep.seedS.toFixed(1)} s); one owner asking one request at a time, after 3 not counted. Budget: «Сводка» ≤ ${BUDGETS.reportsSummaryP95Ms} ms at p95 for a month, a season and a year (the picker's presets); three years, the longest custom period, is shown without one.`,
    '',
    '| report | period | p50 | p95 | max |',
    '|---|---|---|---|---|',
  );
  for (const [period, lat] of Object.entries(rep.summary)) {
    const check = find('«Сводка» p95 (1,500 cabins, 50,000 bookings)', `/api/admin/reports/summary (${period})`);
    L.push(
      `| «Сводка» | ${period} | ${Math.round(lat.p50)} ms | ${cell(`${Math.round(lat.p95)} ms`, check)} | ${Math.round(lat.max)} ms |`,
    );
  }
  L.push(
    `| tourist tax | year | ${Math.round(rep.touristTax.p50)} ms | ${Math.round(rep.touristTax.p95)} ms | ${Math.round(rep.touristTax.max)} ms |`,
  );
  L.push(
    `| bookings.csv (${(rep.csv.bytes / 1e6).toFixed(1)} MB) | year | ${Math.round(rep.csv.p50)} ms | ${Math.round(rep.csv.p95)} ms | ${Math.round(rep.csv.max)} ms |`,
  );
  for (const [period, lat] of Object.entries(rep.funnel?.periods ?? {})) {
    const check = find('Funnel p95 (5,000 visits a day)', `/api/admin/reports/funnel (${period})`);
    L.push(
      `| funnel | ${period} | ${Math.round(lat.p50)} ms | ${cell(`${Math.round(lat.p95)} ms`, check)} | ${Math.round(lat.max)} ms |`,
    );
  }
  L.push('');
  if (rep.funnel) {
    L.push(
      `The funnel reads the public pages' counting: ${rep.funnel.scale.visitsPerDay.toLocaleString('en')} visits a day over ${rep.funnel.scale.days} days (${rep.funnel.rows.toLocaleString('en')} rows of visit_counts, seeded in ${rep.funnel.seedS.toFixed(1)} s), beside the same bookings; a period's answer includes the same period a year before. Budget: ≤ ${BUDGETS.reportsFunnelP95Ms} ms at p95.`,
      '',
    );
  }
  return L;
}

/** The channel stage: «Синхронизировать сейчас» and one change, against Avito's stand-in (bench/channels.ts). */
function renderChannels(r: BenchResults, t: TargetResults, { find, cell }: Checks): string[] {
  const L: string[] = [];
  const c = t.channels;
  const st = r.settings;
  const n = BUDGETS.channelBudgetCabins;
  L.push(...heading('Channels: a sync with Avito'));
  L.push(
    `On an instance of its own, started fresh before the one measured above${c.startS === undefined ? '' : ` (up in ${c.startS.toFixed(0)} s)`}, its Avito API the bench's stand-in on this machine (stand-ins/avito-api.ts) with one account of ${n} listings: so the cabins and Avito bookings it adds change nothing the other stages measure. The catalogue is grown as above to each size; each new cabin's listing gets 1–2 Avito bookings (dates counted from today in Moscow); the account is connected (\`PUT /api/admin/channels/avito\`), then each cabin not yet linked is linked, one after the other as the owner does (\`PUT /api/admin/cabins/:id/channels\`: the listing checked with Avito, its bookings read, the cabin's busy nights and prices sent). «Синхронизировать сейчас» (\`POST /api/admin/channels/sync\`: every listing's bookings read, every iCal feed read, every listing's busy nights and prices sent, conflicts found) ${st.channelSyncTrials ?? '—'} times, once the stand-in has been quiet for a second; every answer is checked (each Avito and feed result ok, a read and a push for each cabin): a failed sync is the stage's error, not a figure. The Avito calls of a sync are counted from the stand-in's log, the trial with the fewest shown (the schedule's own reading of every listing, every 5 minutes, may fall in a trial); "repeated" counts calls to a method and path already called in that sync.`,
    '',
    `Then one change: a block on the last cabin, 300 days ahead, and the stand-in polled every ${st.channelPollMs ?? '—'} ms until the listing's busy nights hold it (at most ${st.channelPushTimeoutS ?? '—'} s). ${
      t.key === 'node'
        ? "Here by the server's own timer, which ticks every 60 s from its start: a trial waits anywhere from 0 to 60 s for the tick, then the tick's own work."
        : "`wrangler dev` runs no Cron Trigger by itself, so the tick is asked for right after the write (`GET /cdn-cgi/local/scheduled`, as `npm start` asks for it every minute): the figure is the tick's own work. In production the Cron Trigger fires each minute, and the wait for it (0–60 s) comes on top."
    }`,
    '',
    `The stand-in answers on loopback: these times are our server's own work. Against Avito each call's round trip comes on top, 4 listings at a time (worker/channels/avito-sync.ts). Budgets at ${n} cabins: the slowest «Синхронизировать сейчас» ≤ ${BUDGETS.channelSyncS} s on both targets (the owner waits for it; 10 s is where a wait loses a person's attention); ≤ ${BUDGETS.channelCallsPerCabin} Avito calls a cabin in one sync, none repeated${t.key === 'node' ? `; a block on Avito ≤ ${BUDGETS.channelPushS} s on the server's own timer (each minute the schedule sends what changed: docs/operations.md, «Channels: Avito and iCal»)` : ''}.`,
    '',
  );
  if (t.key === 'workers') {
    L.push(
      `Cloudflare allows 50 subrequests per invocation on Workers Free. «Синхронизировать сейчас» on Workers reads and sends the listings waiting longest, up to a third of that budget each way (${c.points.find((p) => p.cabins === n)?.syncedNow ?? '…'} of ${n} here), and answers how many follow with the schedule, within minutes (worker/routes/channels.ts); the budgets above are per cabin it sent now. Self-hosted, the sync sends every cabin.`,
      '',
    );
  }
  if (c.error) L.push(...stageFailed(c.error));
  L.push(
    ...tableHead(
      'linked cabins | Avito bookings | linked now: all (each: median / max) | «Синхронизировать сейчас»: median | slowest | each trial | Avito calls in one sync: reads / busy / prices / tokens | repeated | a block on Avito | Avito calls meanwhile',
    ),
  );
  for (const p of c.points) {
    const where = `${p.cabins} cabins`;
    const k = p.requestsByKind;
    const push = p.pushHow
      ? `${p.pushAfterChangeS == null ? `not within ${st.channelPushTimeoutS ?? '—'} s` : s1(p.pushAfterChangeS)} (${p.pushHow === 'timer' ? 'timer' : 'tick asked for'})`
      : '—';
    L.push(
      `| ${p.cabins} | ${p.avitoBookings} | ${p.linked} in ${s1(p.linkS)} (${ms(p.linkMedianMs)} / ${ms(p.linkMaxMs)}) | ${s1(p.syncMedianS)} | ${cell(s1(p.syncMaxS), find('«Синхронизировать сейчас» (slowest trial)', where))} | ${p.syncTrialsS.map((x) => x.toFixed(2)).join(', ')} s | ${cell(`${p.requestsPerSync}: ${k.pull} / ${k.busy} / ${k.prices} / ${k.token}${k.other ? ` + ${k.other} other` : ''}`, find('Avito calls in one sync', where))} | ${p.repeatedCalls} | ${cell(push, find("A block on Avito (the server's own timer)", where))} | ${p.pushRequests ?? '—'} |`,
    );
  }
  L.push('');
  return L;
}

/** The load runs: latency at a fixed rate against the control and the peer, then saturation. */
function renderLoad(r: BenchResults, t: TargetResults, { find, cell }: Checks): string[] {
  const L: string[] = [];
  const st = r.settings;
  const peer = staticPeer(t.key) === 'caddy' ? 'Caddy' : 'the control';
  L.push(...heading('API and static files under load'));
  L.push(
    `autocannon in its own Node process on loopback, every request with \`accept-encoding: br, gzip\` as a browser sends it; latency percentiles are exact over every 2xx response. Load generator, server and peer share the machine's ${r.machine.cores} cores.`,
    '',
    `**At a fixed rate** (service time, not queueing): ${st.fixedRate} req/s offered ${st.rateConnections === 1 ? "over one connection, so no request waits behind another (autocannon sends each second's requests one after the other as soon as the last is answered; until 2026-11-27 morning, over 10 connections, each second began with a burst of 10 at once and p95 timed how fast that queue drained)" : `over ${st.rateConnections} connections`} for ${st.rateDurationS} s, well below every server's capacity, ${st.loadTurns ? `in ${st.loadTurns} turns with the servers it is compared with (each takes a slice of ${st.rateDurationS / st.loadTurns} s in turn, after ${st.warmupS} s of warm-up of its own, as fast as it answers, and its slices are ranked together, after a first round of slices that is not counted, where the load generator's own code ran cold (from 2026-11-27 noon; before, that round counted, and its first slice, always ours, had about twice the p95 of the others): two runs one after the other met different stretches of the machine, and their ratio moved by ±0.3× from one bench to the next on the same code)` : `after ${st.warmupS} s of warm-up`}. Budgets: each API route's p95 ≤ ${BUDGETS.apiVsControl}× the control's p95 at the same rate; each static file's p95 ≤ ${BUDGETS.staticVsPeer}× ${peer}'s. The control is ${t.key === 'workers' ? "a worker under the same `wrangler dev` that only gives a fixed answer: the route's own, uncompressed as our worker makes it (the dev server compresses both alike for each request, as Cloudflare's edge does in production)" : "a bare Node HTTP server that only gives a fixed answer: the route's own, compressed as our server sends it"}. It is given that answer just before ${st.loadTurns ? 'the turns begin' : "its run, which follows the route's"} (bench/control-answer.ts); until 2026-11-26 night it gave a 12 KB JSON body of one repeated letter for every route, which compresses to 163 bytes, so under \`wrangler dev\` it left out the compression that every real answer pays there.`,
    '',
    `**At saturation** (throughput): ${st.connections} connections, closed loop, ${st.loadTurns ? `${st.loadDurationS} s in ${st.loadTurns} turns as above` : `${st.warmupS} s warm-up then ${st.loadDurationS} s`}. Req/s are figures without budgets, except static files: ≥ ${BUDGETS.staticThroughputVsPeer}× ${peer}'s.`,
    '',
    t.key === 'node'
      ? `The peer for static files is Caddy ${st.caddy} (Debian's \`caddy\`, \`file_server\` with \`precompressed br gzip\` and \`try_files {path}.html\`), serving the very directory the server serves, started for the runs and stopped after.\n\nThe self-hosted server keeps each answer it sends to a read that every visitor asks alike (site files; the catalogue, a cabin, its free dates, search) in memory and writes it straight to the socket when the same request comes again, for as long as what it was made from is unchanged: the live build and the file for site files; for the API, SQLite's change stamp (any write, by this server or another process) and the next moment the clock alone changes an answer (a payment hold running out, the day turning in Moscow). So these rows time the answers visitors get to repeated requests. A search for dates nobody asked before is made anew: its cost is the "search alone" column of the growth table below, where each request asks other dates.`
      : `Caddy ${st.caddy} serving the same built directory is shown beside, as on the self-hosted target; the static budgets of this target are against its own control, because \`wrangler dev\`'s local proxy alone is slower than Caddy on this machine, and in production Cloudflare's edge serves these files, not wrangler.\n\nEach isolate keeps its answers to the public API reads (the catalogue, a cabin, its free dates, search) and gives them again while the data stamp (a row that a trigger on every table renews on each write, whoever writes) is the one they were made under, and until the clock alone changes an answer. An isolate trusts the stamp it read for one second, then asks D1 again; its own writes make it ask at once. So the API rows time a repeated read: at 100 req/s one D1 round trip a second, no Hono or drizzle work (from 2026-11-26 night; before, one D1 round trip per read, and earlier every query each time).`,
    '',
  );
  L.push(...tableHead('mode | server | request | req/s | p50 | p95 | p99 | max | bytes/response | non-2xx / errors'));
  for (const a of t.api) {
    const x = a.result;
    const server = a.server === 'ours' ? 'ours' : a.server === 'caddy' ? 'Caddy' : 'control';
    const label = a.server === 'control' ? `the answer of \`GET ${a.path}\`, fixed` : `\`GET ${a.path}\``;
    const mode = a.mode === 'rate' ? `${st.fixedRate} req/s` : `${st.connections} conn.`;
    if (!x) {
      L.push(`| ${mode} | ${server} | ${label} | ${a.error ?? 'failed'} | | | | | | |`);
      continue;
    }
    const d = x.durationS;
    const p95Check =
      a.server === 'ours' && a.mode === 'rate' ? find(`p95 at ${x.rate ?? '—'} req/s`, a.path) : undefined;
    const rpsCheck =
      a.server === 'ours' && a.mode === 'saturation' && a.static ? find('req/s at saturation', a.path) : undefined;
    L.push(
      `| ${mode} | ${server} | ${label} | ${cell(String(Math.round(x.rps)), rpsCheck)} | ${pct2(x.p50, d)} | ${cell(pct2(x.p95, d), p95Check)} | ${pct2(x.p99, d)} | ${ms2(x.max)} | ${x.bytesPerResponse} | ${x.non2xx} / ${x.errors + x.timeouts} |`,
    );
  }
  L.push('');
  return L;
}

/** The memory stage (bench/memory.ts): the whole self-hosted server idle and at the peak of bursts of edits. */
function renderMemory(t: TargetResults, { find, cell }: Checks): string[] {
  const m = t.memory;
  if (!m) return [];
  const L = heading('Memory of the whole self-hosted server');
  if (!('points' in m)) return [...L, ...stageFailed(m.error)];
  const peaks = Object.entries(BUDGETS.memoryPeakMb)
    .map(([n, mb]) => `≤ ${mb} MB at ${n} cabins`)
    .join(', ');
  L.push(
    `\`npm run serve\` on a data folder of its own with the demo's 15 cabins, then grown to 150; limit: ${m.limit}. The resident memory (RSS) of the server and all its descendants (the build process kept between edits, its esbuild) summed from /proc every 100 ms: a page two processes share counts in each, so the sum errs high. A burst is that many saves of the hero title 500 ms apart (each build starts before the next save), measured until \`/\` shows the last. Idle is the most the tree held over 5 s, 5 s after the build process went (2 minutes after its last build). Budgets: idle ≤ ${BUDGETS.memoryIdleMb} MB at 15 cabins; the peak ${peaks}. First start (seed, build with the photos from Astro's cache, serve): peak ${m.firstBuildPeakMb} MB.`,
    '',
  );
  if (m.error) L.push(...stageFailed(m.error));
  if (m.serverExit) L.push(`The server's process ended during the stage: ${m.serverExit}.`, '');
  L.push(
    ...tableHead(
      'active cabins | rebuild after growing | burst | live after | peak | idle, build process loaded | idle',
    ),
  );
  for (const p of m.points) {
    const peak = find('Memory of the whole server, peak of a burst of edits', `${p.cabins} cabins`);
    const idle =
      p.cabins === 15 ? find('Memory of the whole server, idle', '15 cabins, the build process gone') : undefined;
    for (const [i, b] of p.bursts.entries()) {
      const first = i === 0;
      L.push(
        `| ${first ? p.cabins : ''} | ${first && p.growBuildPeakMb !== undefined ? (p.growBuildPeakMb === p.peakMb ? cell(`${p.growBuildPeakMb} MB`, peak) : `${p.growBuildPeakMb} MB`) : ''} | ${b.edits} saves | ${b.seconds.toFixed(1)} s${b.live ? '' : ' (not live)'} | ${b.peakMb === p.peakMb && p.growBuildPeakMb !== p.peakMb ? cell(`${b.peakMb} MB`, peak) : `${b.peakMb} MB`} | ${first ? `${p.idleWithBuilderMb} MB` : ''} | ${first ? cell(p.idleMb === null ? '— (the build process stayed)' : `${p.idleMb} MB`, idle) : ''} |`,
      );
    }
  }
  L.push('');
  if (m.cgroup) {
    const check = find('A burst of 30 edits under a 1 GB limit', 'cgroup memory limit 1 GB');
    L.push(
      `The kernel's count for the cgroup (the page cache of the files a build writes included, which it reclaims before it kills): at most ${m.cgroup.maxUsageMb} MB, the limit reached ${m.cgroup.limitHits} times, ${m.cgroup.oomKills} processes killed. The burst of 30 edits: ${cell(check?.value ?? '—', check)}.`,
      '',
    );
  }
  return L;
}

/** The interactions stage: each tap's paint at 4× CPU, and the card's wake-up. */
function renderInteractions(t: TargetResults): string[] {
  const i = t.interactions;
  if (!i) return [];
  const L = heading('Taps on a slow phone');
  if ('error' in i) return [...L, `Not measured: ${i.error}.`, ''];
  L.push(
    `A 390 px phone with the CPU ${i.cpuSlowdown}× slower (Lighthouse's mobile setting), a fresh page each of ${i.runs} runs, each tap a finger held on the glass for ${i.fingerDownMs} ms: each tap's Event Timing duration, from the input to the next paint (the figure INP is made of; Chromium reports none under 16 ms, counted as 16). Budget ≤ ${BUDGETS.interactionMs} ms (median); the booking card ready ≤ ${BUDGETS.cardReadyMs} ms after it scrolls into view: ${i.cardReadyMs === null ? 'not measured' : `${Math.round(i.cardReadyMs)} ms`}.`,
    '',
    '| page | tap | median | slowest |',
    '| --- | --- | --- | --- |',
  );
  const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)} ms`);
  for (const s of i.steps) L.push(`| ${s.page} | ${s.name} | ${ms(s.medianMs)} | ${ms(s.maxMs)} |`);
  if (i.errors.length) L.push('', ...i.errors.map((e) => `- not measured: ${e}`));
  L.push('');
  return L;
}
