// The interactions stage (BENCH_ONLY=interactions): how long a visitor's taps take to paint on a
// phone whose CPU is 4× slower (Lighthouse's mobile setting), read from the browser's own Event
// Timing entries, the figures INP is made of. The booking card's four taps (open the dates, the
// check-in day, the check-out day, the guests), the search form's dates, and the guest page's
// «Отменить бронирование»; and how long the card takes to wake once it scrolls into view.
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { CHROME_FLAGS, CHROMIUM } from './lighthouse.ts';
import { todayInMoscow } from '../schema/dates.ts';
import { median } from './stats.ts';

/** Lighthouse's mobile CPU slowdown. */
const CPU_SLOWDOWN = 4;
/** Event Timing reports no interaction shorter than this: a tap under it is counted as this long. */
const EVENT_THRESHOLD_MS = 16;
/** After a tap, its entry arrives once the next frame is painted; this is ample at 4×. */
const SETTLE_MS = 600;
/**
 * How long a tap keeps its finger on the glass. Playwright's `tap()` sends the touch's start and
 * end at the same instant, which no finger does: the page then runs the touch's own events
 * (`pointerdown`, `touchstart`) and the pressed state's frame inside the click's input delay,
 * 16–48 ms at 4× that a phone spends while the finger is still down. 60 ms is a quick tap, under
 * the 100 ms in which Android still waits to tell a tap from a scroll before it shows a press.
 */
const FINGER_DOWN_MS = 60;

export type InteractionStep = {
  page: 'card' | 'search' | 'guest';
  name: string;
  /** Median and slowest of the runs, ms from the input to the next paint (Event Timing's duration). */
  medianMs: number | null;
  maxMs: number | null;
};
export type InteractionResults = {
  runs: number;
  cpuSlowdown: number;
  /** How long each tap held its finger down, ms. */
  fingerDownMs: number;
  /** From the card scrolling into view to its island being ready (`#booking[data-ready]`), median. */
  cardReadyMs: number | null;
  steps: InteractionStep[];
  errors: string[];
};

type Probe = { events: { id: number; duration: number }[]; visibleAt?: number; readyAt?: number };

/** Collects every interaction's Event Timing entry, and when the card is seen and wakes. */
function probe() {
  const w = window as unknown as { __probe: Probe };
  w.__probe = { events: [] };
  new PerformanceObserver((list) => {
    // interactionId is in Chromium's Event Timing, not yet in TypeScript's DOM types.
    for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
      if (e.interactionId) w.__probe.events.push({ id: e.interactionId, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  addEventListener('DOMContentLoaded', () => {
    const card = document.querySelector('#booking');
    if (!card) return;
    new IntersectionObserver((entries, o) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      w.__probe.visibleAt = performance.now();
      o.disconnect();
    }).observe(card);
    const woke = () => {
      if (!card.hasAttribute('data-ready') || w.__probe.readyAt !== undefined) return false;
      w.__probe.readyAt = performance.now();
      return true;
    };
    if (!woke()) new MutationObserver((_, o) => woke() && o.disconnect()).observe(card, { attributes: true });
  });
}

async function slowPhonePage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'ru-RU',
  });
  const page = await context.newPage();
  await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

/**
 * A finger's tap on the middle of `target`: scrolled into view and still, checked to be what the
 * finger lands on (as Playwright's own `tap()` checks), then down for FINGER_DOWN_MS and up.
 */
async function fingerTap(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  let box = await target.boundingBox();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50);
    const next = await target.boundingBox();
    if (box && next && next.x === box.x && next.y === box.y) break;
    box = next;
  }
  if (!box) throw new Error('the button to tap is not on the page');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const hit = await target.evaluate((el, p) => el.contains(document.elementFromPoint(p.x, p.y)), { x, y });
  if (!hit) throw new Error('something covers the button to tap');
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    await page.waitForTimeout(FINGER_DOWN_MS);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

/** The slowest interaction the action caused, ms (EVENT_THRESHOLD_MS when none reached it). */
async function timed(page: Page, act: () => Promise<unknown>): Promise<number> {
  const before = await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.events.length);
  await act();
  await page.waitForTimeout(SETTLE_MS);
  const durations = await page.evaluate(
    (n) => (window as unknown as { __probe: Probe }).__probe.events.slice(n).map((e) => e.duration),
    before,
  );
  return Math.max(EVENT_THRESHOLD_MS, ...durations);
}

/** The enabled days the open calendar shows, first to last. */
const freeDays = (page: Page) =>
  page.locator('.stay-calendar [data-day]:not(.rdp-outside) button:not([disabled])').all();

/** Turns the calendar's months (not timed) until it shows at least `count` free days. */
async function monthWithFreeDays(page: Page, count: number) {
  for (let i = 0; i < 6 && (await freeDays(page)).length < count; i++) {
    const caption = await page.locator('.stay-calendar .rdp-caption_label').first().innerText();
    await page
      .locator('.stay-calendar')
      .getByRole('button', { name: /следующему месяцу/i })
      .click();
    await page.waitForFunction(
      (before) => document.querySelector('.stay-calendar .rdp-caption_label')?.textContent !== before,
      caption,
    );
  }
  const days = await freeDays(page);
  if (days.length < count) throw new Error(`the calendar shows fewer than ${count} free days in six months`);
  return days;
}

async function cardRun(browser: Browser, url: string, out: Map<string, number[]>, ready: number[]) {
  const page = await slowPhonePage(browser, url);
  try {
    const card = page.locator('#booking');
    await card.scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor({ timeout: 30_000 });
    const woke = await page.evaluate(() => {
      const p = (window as unknown as { __probe: Probe }).__probe;
      return p.visibleAt !== undefined && p.readyAt !== undefined ? p.readyAt - p.visibleAt : null;
    });
    if (woke !== null) ready.push(Math.max(0, woke));
    const note = (name: string, ms: number) => out.set(name, [...(out.get(name) ?? []), ms]);
    note('Open the dates («Заезд»)', await timed(page, () => fingerTap(page, card.getByLabel('Заезд'))));
    await page.locator('.stay-calendar .rdp-caption_label').waitFor({ timeout: 30_000 });
    const days = await monthWithFreeDays(page, 4);
    note('Check-in day', await timed(page, () => fingerTap(page, days[0]!)));
    const after = await freeDays(page);
    note('Check-out day', await timed(page, () => fingerTap(page, after[2] ?? after.at(-1)!)));
    const guests = card.getByLabel('Гости');
    await guests.focus();
    note('Guests', await timed(page, () => page.keyboard.press('ArrowDown')));
  } finally {
    await page.context().close();
  }
}

async function searchRun(browser: Browser, url: string, out: Map<string, number[]>) {
  const page = await slowPhonePage(browser, url);
  try {
    // The form's dates wake their calendar on the first tap, as a visitor's would.
    await page.waitForLoadState('networkidle');
    const field = page.locator('form input[name="checkIn"]').first();
    out.set('Open the dates', [...(out.get('Open the dates') ?? []), await timed(page, () => fingerTap(page, field))]);
    await page.locator('.stay-calendar .rdp-caption_label').waitFor({ timeout: 30_000 });
    const days = await monthWithFreeDays(page, 1);
    out.set('A day', [...(out.get('A day') ?? []), await timed(page, () => fingerTap(page, days[0]!))]);
  } finally {
    await page.context().close();
  }
}

async function guestRun(browser: Browser, url: string, out: Map<string, number[]>) {
  const page = await slowPhonePage(browser, url);
  try {
    const cancel = page.getByRole('button', { name: 'Отменить бронирование' });
    await cancel.waitFor({ timeout: 30_000 });
    // The island hydrates the server's buttons; a tap before that would be measured as the page's own.
    await page.waitForLoadState('networkidle');
    out.set('«Отменить бронирование»', [
      ...(out.get('«Отменить бронирование»') ?? []),
      await timed(page, () => fingerTap(page, cancel)),
    ]);
  } finally {
    await page.context().close();
  }
}

/**
 * Runs every scenario `runs` times on a fresh phone each time. `guestPath` is a guest page of a
 * stay that can still be cancelled (absent: that scenario is skipped and said so).
 */
export async function measureInteractions(
  base: string,
  paths: { cabin: string; search: string; guest?: string },
  runs: number,
  log: (line: string) => void,
): Promise<InteractionResults> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  const card = new Map<string, number[]>();
  const search = new Map<string, number[]>();
  const guest = new Map<string, number[]>();
  const ready: number[] = [];
  const errors: string[] = [];
  const attempt = async (label: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      const why = `${label}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
      errors.push(why);
      log(`  ${why}`);
    }
  };
  try {
    for (let i = 0; i < runs; i++) {
      log(`Interactions at ${CPU_SLOWDOWN}× CPU, run ${i + 1} of ${runs}…`);
      await attempt('card', () => cardRun(browser, `${base}${paths.cabin}`, card, ready));
      await attempt('search', () => searchRun(browser, `${base}${paths.search}`, search));
      if (paths.guest) await attempt('guest page', () => guestRun(browser, `${base}${paths.guest}`, guest));
    }
  } finally {
    await browser.close();
  }
  if (!paths.guest) errors.push('guest page: no stay that can still be cancelled to open');
  const steps = (page: InteractionStep['page'], m: Map<string, number[]>): InteractionStep[] =>
    [...m].map(([name, values]) => ({ page, name, medianMs: median(values), maxMs: Math.max(...values) }));
  return {
    runs,
    cpuSlowdown: CPU_SLOWDOWN,
    fingerDownMs: FINGER_DOWN_MS,
    cardReadyMs: ready.length ? median(ready) : null,
    steps: [...steps('card', card), ...steps('search', search), ...steps('guest', guest)],
    errors,
  };
}

/** The guest page of a confirmed stay ahead, read through the panel's API: one the guest can still cancel. */
export async function cancellableGuestPath(base: string, cookie: string): Promise<string | undefined> {
  const list = (await fetch(`${base}/api/admin/bookings`, { headers: { cookie } }).then((r) => r.json())) as {
    status: string;
    checkIn: string;
    guestToken: string | null;
  }[];
  const today = todayInMoscow();
  const stay = list.find((b) => b.status === 'confirmed' && b.checkIn > today && b.guestToken);
  return stay ? `/b/${stay.guestToken}` : undefined;
}
