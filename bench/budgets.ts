import type { BenchResults, BudgetCheck, PageKey, PageResult, TargetResults } from './results.ts';

/** The budgets of issue 5, in one place. */
export const BUDGETS = {
  performance: 95,
  otherCategories: 100,
  htmlGzipKb: 14,
  htmlBudgetPages: ['home', 'catalogue', 'cabin'] as PageKey[],
  noJsPages: ['catalogue'] as PageKey[],
  islandPages: ['home', 'cabin', 'contacts', 'reviews', 'admin'] as PageKey[],
  islandJsGzipKb: 80,
  cls: 0,
  editToLiveS: 15,
  /** GET /api/cabins p95 at 50 connections, as a multiple of the same runtime's control p95. */
  apiCabinsVsControl: 1.5,
  /** A static page's p95 at 50 connections, as a multiple of the control's p95. */
  staticVsControl: 1.2,
  /** Search and the owner's occupancy view, one request at a time, at 1,500 cabins on the Node target (issue 18). */
  searchAloneMs: 50,
  scaleBudgetCabins: 1500,
} as const;

export const PUBLIC_PAGES: PageKey[] = ['home', 'catalogue', 'cabin', 'contacts', 'reviews', 'search'];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** CLS as Lighthouse shows it (three decimals): 0 means it rounds to 0.000. */
export const clsShown = (cls: number) => Math.round(cls * 1000) / 1000;

/** Every budget checked on every target; a page that could not be measured fails its budgets. */
export function checkBudgets(r: Omit<BenchResults, 'budgets' | 'totalRuntimeS'>): BudgetCheck[] {
  return r.targets.flatMap((t) => checkTarget(t, r.settings.editTimeoutS).map((b) => ({ ...b, target: t.label })));
}

function checkTarget(r: TargetResults, editTimeoutS: number): Omit<BudgetCheck, 'target'>[] {
  const out: Omit<BudgetCheck, 'target'>[] = [];
  const missing = (p: PageResult) => p.error ?? `HTTP ${p.status}`;
  for (const p of r.pages) {
    const lh = p.lighthouse;
    const isPublic = PUBLIC_PAGES.includes(p.key);
    if (isPublic) {
      for (const [cat, min] of [
        ['performance', BUDGETS.performance],
        ['accessibility', BUDGETS.otherCategories],
        ['best-practices', BUDGETS.otherCategories],
        ['seo', BUDGETS.otherCategories],
      ] as const) {
        const v = lh?.scores[cat] ?? null;
        out.push({ figure: `Lighthouse ${cat}`, where: p.path, value: v === null ? missing(p) : String(v), budget: min === 100 ? '100' : `≥ ${min}`, pass: v !== null && v >= min });
      }
    }
    out.push({
      figure: 'CLS', where: p.path, value: lh ? String(clsShown(lh.cls)) : missing(p), budget: '0', pass: !!lh && clsShown(lh.cls) === BUDGETS.cls,
    });
    const w = p.weight;
    const noWeight = p.weightError ?? missing(p);
    if (BUDGETS.htmlBudgetPages.includes(p.key)) {
      out.push({ figure: 'HTML gzipped', where: p.path, value: w ? kb(w.htmlGzip) : noWeight, budget: `≤ ${BUDGETS.htmlGzipKb} KB`, pass: !!w && w.htmlGzip <= BUDGETS.htmlGzipKb * 1024 });
    }
    if (BUDGETS.noJsPages.includes(p.key)) {
      out.push({ figure: 'JavaScript files loaded', where: p.path, value: w ? `${w.jsFiles} files, ${kb(w.jsGzip)}` : noWeight, budget: 'none', pass: !!w && w.jsFiles === 0 });
    }
    if (BUDGETS.islandPages.includes(p.key)) {
      const total = w ? w.jsGzip + w.inlineJsGzip : 0;
      out.push({ figure: 'JavaScript gzipped (files + inline)', where: p.path, value: w ? kb(total) : noWeight, budget: `≤ ${BUDGETS.islandJsGzipKb} KB`, pass: !!w && total <= BUDGETS.islandJsGzipKb * 1024 });
    }
  }
  const e = r.editToLive.medianS;
  out.push({ figure: 'Edit-to-live (median)', where: 'admin save → /', value: e === null ? (r.editToLive.error ?? `not live within ${editTimeoutS} s`) : `${e.toFixed(1)} s`, budget: `≤ ${BUDGETS.editToLiveS} s`, pass: e !== null && e <= BUDGETS.editToLiveS });
  const control = r.api.find((a) => a.control)?.result?.p95 ?? null;
  for (const [figure, path, factor] of [
    ['GET /api/cabins p95, 50 connections', '/api/cabins', BUDGETS.apiCabinsVsControl],
    ['Static page p95, 50 connections', '/cabins', BUDGETS.staticVsControl],
  ] as const) {
    const row = r.api.find((a) => a.path === path && !a.control);
    const p95 = row?.result?.p95 ?? null;
    const notMeasured = row?.result ? `no response within ${row.result.durationS} s` : (row?.error ?? 'not measured');
    const limit = control === null ? null : control * factor;
    out.push({
      figure,
      where: 'demo content',
      value: p95 === null ? notMeasured : `${p95.toFixed(1)} ms (${control === null ? 'no control' : `${(p95 / control).toFixed(2)}× control`})`,
      budget: limit === null ? `≤ ${factor}× control p95 (control not measured)` : `≤ ${factor}× control p95 = ${limit.toFixed(1)} ms`,
      pass: p95 !== null && limit !== null && p95 <= limit,
    });
  }
  // Search and «Шахматка» must stay fast as the catalogue grows: alone at 1,500 cabins, self-hosted.
  const largest = r.key === 'node' ? r.scaling.points.find((pt) => pt.targetActive === BUDGETS.scaleBudgetCabins) : undefined;
  if (r.key === 'node') {
    for (const [figure, serial] of [
      ['GET /api/search p95 alone', largest?.search?.serial],
      ['GET /api/admin/occupancy p95 alone', largest?.occupancy?.serial],
    ] as const) {
      out.push({
        figure,
        where: `${BUDGETS.scaleBudgetCabins} cabins`,
        value: serial ? `${serial.p95.toFixed(1)} ms` : (r.scaling.error ?? 'not measured'),
        budget: `≤ ${BUDGETS.searchAloneMs} ms`,
        pass: !!serial && serial.p95 <= BUDGETS.searchAloneMs,
      });
    }
  }
  return out;
}
