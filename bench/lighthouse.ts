import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_FLAGS } from '../scripts/lib/chromium.ts';
import { median } from './stats.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROME_FLAGS = [
  ...CHROMIUM_FLAGS,
  // The bench talks to 127.0.0.1 only: any other host (a map embed, say) does not resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export type NetworkRecord = {
  url: string;
  resourceType: string;
  mimeType: string;
  statusCode: number;
  transferSize: number;
};
export type FailingAudit = {
  category: Category;
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
};

export type LighthousePage = {
  runs: number;
  /** Median over the runs of each figure on its own (scores 0–100, times in ms). */
  scores: Record<Category, number | null>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /**
   * Each run's own figures, to show the spread. `serverMs` is the longest server response time Lighthouse's model
   * assumed for an origin of the page (its diagnostics' maxServerLatency): every request the
   * model replays waits that long, so a slower local server moves FCP by as much.
   */
  perRun: {
    performance: number | null;
    lcpMs: number;
    fcpMs: number;
    tbtMs: number;
    cls: number;
    serverMs: number | null;
  }[];
  /** The run whose performance score is the median: its network records and failing audits are reported. */
  medianRun: { index: number; requests: NetworkRecord[]; failing: FailingAudit[] };
  /** Lighthouse's measure of this machine's CPU speed (median); below ~1000 its CPU throttling overstates slowness. */
  benchmarkIndex: number;
  /** Runs that Lighthouse itself gave up on (e.g. NO_NAVSTART) and were made again. */
  retries: number;
  warnings: string[];
};

/**
 * One Lighthouse run, in a fresh headless Chromium, with Lighthouse's defaults: mobile
 * emulation (Moto G Power class, 412×823) and simulated slow-4G throttling.
 */
export async function lighthouseOnce(url: string, skipAudits: string[] = []): Promise<Result> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      skipAudits,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse ${result.lhr.runtimeError.code}`);
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}

/** `runs` Lighthouse runs of one page, summarised as medians. */
/**
 * A page that must not be indexed (the search results) would fail Lighthouse's «is-crawlable»
 * by design, whatever else it does: that one audit is skipped for it, and said so in the report.
 */
export async function lighthousePage(
  url: string,
  runs: number,
  log: (s: string) => void,
  skipAudits: string[] = [],
): Promise<LighthousePage> {
  const lhrs: Result[] = [];
  let retries = 0;
  for (let i = 0; i < runs; i++) {
    const lhr = await withRetries(
      () => lighthouseOnce(url, skipAudits),
      3,
      (err) => {
        retries += 1;
        log(`    run ${i + 1}: ${String(err)}; running it again`);
      },
    );
    log(
      `    run ${i + 1}/${runs}: performance ${score(lhr, 'performance')}, LCP ${Math.round(metric(lhr, 'largest-contentful-paint'))} ms`,
    );
    lhrs.push(lhr);
  }
  const byPerf = lhrs
    .map((lhr, index) => ({ index, perf: score(lhr, 'performance') ?? -1 }))
    .sort((a, b) => a.perf - b.perf);
  const mid = byPerf[Math.floor((byPerf.length - 1) / 2)]!.index;
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => {
      const values = lhrs.map((lhr) => score(lhr, c)).filter((v): v is number => v !== null);
      return [c, values.length ? median(values) : null];
    }),
  ) as Record<Category, number | null>;
  return {
    runs,
    scores,
    lcpMs: median(lhrs.map((l) => metric(l, 'largest-contentful-paint'))),
    tbtMs: median(lhrs.map((l) => metric(l, 'total-blocking-time'))),
    cls: median(lhrs.map((l) => metric(l, 'cumulative-layout-shift'))),
    fcpMs: median(lhrs.map((l) => metric(l, 'first-contentful-paint'))),
    perRun: lhrs.map((l) => ({
      performance: score(l, 'performance'),
      lcpMs: metric(l, 'largest-contentful-paint'),
      fcpMs: metric(l, 'first-contentful-paint'),
      tbtMs: metric(l, 'total-blocking-time'),
      cls: metric(l, 'cumulative-layout-shift'),
      serverMs: serverLatency(l),
    })),
    medianRun: { index: mid, requests: networkRecords(lhrs[mid]!), failing: failingAudits(lhrs[mid]!) },
    benchmarkIndex: median(lhrs.map((l) => l.environment.benchmarkIndex)),
    retries,
    warnings: [...new Set(lhrs.flatMap((l) => l.runWarnings))],
  };
}

async function withRetries<T>(fn: () => Promise<T>, attempts: number, onRetry: (err: unknown) => void): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts) throw err;
      onRetry(err);
    }
  }
}

const score = (lhr: Result, c: Category): number | null => {
  const s = lhr.categories[c]?.score;
  return s === null || s === undefined ? null : Math.round(s * 100);
};

const metric = (lhr: Result, id: string): number => lhr.audits[id]?.numericValue ?? NaN;

/** The diagnostics' maxServerLatency: the slowest server response time the model gave an origin of the page. */
function serverLatency(lhr: Result): number | null {
  const details = lhr.audits.diagnostics?.details as { items?: { maxServerLatency?: number }[] } | undefined;
  return details?.items?.[0]?.maxServerLatency ?? null;
}

function networkRecords(lhr: Result): NetworkRecord[] {
  const details = lhr.audits['network-requests']?.details as { items?: Record<string, unknown>[] } | undefined;
  return (details?.items ?? []).map((item) => ({
    url: String(item.url),
    resourceType: String(item.resourceType ?? ''),
    mimeType: String(item.mimeType ?? ''),
    statusCode: Number(item.statusCode ?? 0),
    transferSize: Number(item.transferSize ?? 0),
  }));
}

/** Audits that cost points: score below 1 in a category where they carry weight. */
function failingAudits(lhr: Result): FailingAudit[] {
  const out: FailingAudit[] = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || (ref.weight === 0 && c !== 'performance')) continue;
      const mode = audit.scoreDisplayMode;
      if (mode === 'notApplicable' || mode === 'manual' || mode === 'informative') continue;
      if (audit.score !== null && audit.score >= 1) continue;
      if (audit.score === null && mode !== 'error') continue;
      out.push({
        category: c,
        id: ref.id,
        title: audit.title,
        score: audit.score,
        ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
      });
    }
  }
  return out;
}
