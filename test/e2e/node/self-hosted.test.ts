import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, quietEnv, waitFor } from '../../../scripts/lib/tools.ts';
import { launchChromium, VIEWPORTS } from '../browser.ts';
import { addDays, todayInMoscow } from '../../../schema/dates.ts';
import { adminApi, openTab, publicText, signIn, visible } from '../admin/helpers.ts';
import { dayButton } from '../stay-calendar.ts';
import { axeViolations } from '../axe.ts';
import { apiAt, bodyOf } from '../../typed-api.ts';

// The self-hosted target as an owner runs it: `node scripts/serve.ts` (npm run serve) with
// SEED_DEMO=1 on a fresh DATA_DIR, then a visitor and the owner in Chromium, then a restart.
// DATA_DIR sits beside the project under the project's own name plus a suffix, with a space and
// Cyrillic in it, as owners lay it out (/srv/kaspiy and /srv/kaspiy-data): Astro once took such a
// folder for part of the project and the first build never finished.

const PORT = Number(process.env.E2E_NODE_PORT ?? 3110);
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'node-e2e-password-1';

let dataDir: string;
let server: ChildProcess | undefined;
let log = '';
let browser: Browser;
/** The demo cabin a visitor sent a real request for: it is the owner's from then on. */
let requested: number | undefined;

/** Starts the production server the way the README and docs/operations.md say, and waits for its site. */
async function serve(extra: Record<string, string> = {}) {
  // A server left running on the port (an earlier run cut short) would answer in place of this
  // one, while this one exits 78 (port taken): say so instead of testing the wrong server.
  const leftover = await fetch(`${BASE}/build.json`).then(
    () => true,
    () => false,
  );
  if (leftover)
    throw new Error(`Port ${PORT} already answers: stop the server left on it (or set E2E_NODE_PORT) and run again`);
  log = '';
  server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.ts')], {
    cwd: ROOT,
    env: quietEnv({ PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (log += d));
  server.stderr!.on('data', (d: Buffer) => (log += d));
  const exited = new Promise<never>((_, reject) =>
    server!.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${log}`))),
  );
  // The first start seeds and builds the whole site (photos optimised): minutes on 2 cores.
  await Promise.race([waitFor(`${BASE}/build.json`, 300_000), exited]);
  exited.catch(() => {});
}

/** SIGTERM, as systemd stops it; resolves with the exit code. */
async function stop(): Promise<number | null> {
  const s = server;
  server = undefined;
  if (!s || s.exitCode !== null) return s?.exitCode ?? null;
  const gone = new Promise<number | null>((r) => s.once('exit', (code) => r(code)));
  s.kill('SIGTERM');
  return gone;
}

async function open(pathname: string, viewport: keyof typeof VIEWPORTS = 'phone'): Promise<Page> {
  const context = await browser.newContext({ ...VIEWPORTS[viewport], baseURL: BASE, locale: 'ru-RU' });
  const page = await context.newPage();
  await page.goto(pathname);
  return page;
}

beforeAll(async () => {
  dataDir = `${ROOT}-данные сайта-${process.pid}`;
  await mkdir(dataDir);
  await serve({ SEED_DEMO: '1' });
  browser = await launchChromium();
}, 330_000);

afterAll(async () => {
  await browser?.close();
  await stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the self-hosted server (npm run serve)', () => {
  it('should show a visitor on a phone every public page with the demo content, compressed', async () => {
    const page = await open('/');
    const encodings: Record<string, string | undefined> = {};
    page.on('response', (res) => {
      const type = res.headers()['content-type'] ?? '';
      if (/text\/html|text\/css|javascript/.test(type))
        encodings[new URL(res.url()).pathname] = res.headers()['content-encoding'];
    });
    const home = await page.goto('/');
    expect(home!.status()).toBe(200);
    expect(home!.headers()['content-encoding']).toBe('br');
    expect(home!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(home!.headers()['x-content-type-options']).toBe('nosniff');
    // Plain http on 127.0.0.1: no HSTS (SITE_URL is not https).
    expect(home!.headers()['strict-transport-security']).toBeUndefined();
    await visible(page.getByRole('link', { name: 'Найти жилье' }));
    // The gallery's photos after the first six come from a file of their own, when the visitor nears it.
    await page.locator('[data-gallery]').scrollIntoViewIfNeeded();
    await page.locator('.home-gallery__controls:not([hidden])').waitFor();
    expect(await page.locator('.home-gallery__item').count()).toBe(
      Number(await page.locator('[data-gallery]').getAttribute('data-count')),
    );

    await page.goto('/cabins');
    await visible(page.getByRole('heading', { name: 'Каталог недвижимости' }));
    const cards = page.getByRole('article');
    expect(await cards.count()).toBe(12);
    await cards.first().getByRole('link').first().click();
    await page.waitForURL(/\/cabin\/\d+$/);
    await visible(page.getByRole('link', { name: /Забронировать/ }));
    const photo = page.locator('main img').first();
    await photo.waitFor({ state: 'visible' });
    expect(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.goto('/reviews');
    await visible(page.getByRole('button', { name: 'Оставить отзыв' }));
    await page.goto('/contacts');
    await visible(page.getByRole('heading', { name: 'Напишите нам' }));
    // The search results are filled by the server from its shell and the cabins' cards, with
    // the static pages' opener policy: the same browsing context, window.name kept.
    await page.evaluate(() => (window.name = 'from-contacts'));
    const search = await page.goto(
      `/search?checkIn=${addDays(todayInMoscow(), 10)}&checkOut=${addDays(todayInMoscow(), 13)}&guests=2`,
    );
    expect(search!.status()).toBe(200);
    await visible(page.getByRole('heading', { name: 'Свободно на ваши даты' }));
    expect(await page.locator('.search-results .cabin-card').count()).toBeGreaterThan(0);
    await visible(page.getByRole('heading', { name: 'Не подходят на эти даты' }));
    expect(await page.evaluate(() => window.name)).toBe('from-contacts');

    // The public pages load no script file until the visitor reaches for a control: the search
    // form's date picker then comes, compressed like the pages.
    const picker = page.waitForResponse((res) => new URL(res.url()).pathname.endsWith('.js'));
    await page.locator('#search-in').focus();
    await picker;
    const js = Object.entries(encodings).filter(([p]) => p.endsWith('.js'));
    expect(js.length).toBeGreaterThan(0);
    for (const [p, enc] of Object.entries(encodings)) expect(enc, p).toMatch(/^(br|gzip)$/);
    const missing = await page.goto('/no-such-page');
    expect(missing!.status()).toBe(404);
    await page.context().close();

    // What an uptime monitor reads: the site is built and the database answers.
    const health = await fetch(`${BASE}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      contentVersion: expect.any(Number),
      builtAt: expect.any(String),
    });
  });

  it('should let the owner sign in at /admin and put an edit live by itself, and keep every edit after a restart', async () => {
    const page = await open('/admin', 'desktop');
    await signIn(page, PASSWORD);
    await openTab(page, 'Настройки');
    const title = `Каспий на своём сервере ${Date.now()}`;
    await page.getByLabel('Заголовок', { exact: true }).fill(title);
    await page.getByRole('button', { name: 'Сохранить все настройки' }).click();
    await visible(page.locator('.notices').getByText('Настройки сохранены!'));
    // The in-process rebuilder publishes the change; the panel says so when it is live.
    await visible(page.locator('.publish').getByText('Сайт обновлён'), 90_000);
    expect((await publicText(page, '/')).text).toContain(title);
    await page.context().close();

    // One more edit, and systemd stops the server at once: the build it started is cut short
    // (the live site is left as it was), and the next start builds it.
    const subtitle = `Правка перед самой остановкой ${Date.now()}`;
    expect((await (await adminApi(BASE, PASSWORD)).put('/settings', { heroSubtitle: subtitle })).status).toBe(200);
    expect(await stop(), log).toBe(0);
    expect(log).toContain('SIGTERM');
    await serve();
    await expect.poll(() => log, { timeout: 10_000 }).toContain('older than the content');
    await (await adminApi(BASE, PASSWORD)).waitPublished(90_000);
    const after = await open('/');
    const text = await after.locator('body').innerText();
    expect(text).toContain(title);
    expect(text).toContain(subtitle);
    // The account made from the first ADMIN_PASSWORD is still the one that signs in.
    const login = await fetch(`${BASE}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    await after.context().close();
  }, 240_000);
  it('should let a visitor on a phone pick free dates on the calendar and send a request, and the owner confirm it in «Заявки»', async () => {
    const cabins = await (await apiAt(BASE).cabins.$get({ query: {} })).json();
    const cabin = cabins[0]!;
    requested = cabin.id;
    const checkIn = addDays(todayInMoscow(), 120);
    const page = await open(`/cabin/${cabin.id}`);
    const card = page.locator('#booking');
    await card.scrollIntoViewIfNeeded();
    await page.locator('#booking[data-ready]').waitFor();
    await card.getByLabel('Заезд').click();
    const calendar = page.locator('.stay-calendar');
    await calendar.locator('.rdp-caption_label').waitFor();
    // The demo closes a few nights in the next days: struck out, not a check-in.
    const param = { id: String(cabin.id) };
    const { busy } = await bodyOf(await apiAt(BASE).cabins[':id'].availability.$get({ param }), 200);
    const struck = busy.find((b) => b.start.slice(0, 7) === todayInMoscow().slice(0, 7));
    if (struck) expect(await calendar.locator(`[data-day="${struck.start}"] button`).isDisabled()).toBe(true);
    await (await dayButton(page, checkIn)).click();
    await (await dayButton(page, addDays(checkIn, 3))).click();
    await card.getByLabel('Имя').fill('Гость с Node');
    await card.getByLabel('Телефон').fill('+7 928 777-66-55');
    await card.getByLabel(/Я согласен/).check();
    await card.getByRole('button', { name: 'Отправить заявку' }).click();
    await visible(card.locator('.booking__sent'));
    const number = Number(/Заявка №(\d+)/.exec(await card.locator('.booking__sent').innerText())![1]);
    await page.context().close();

    const admin = await open('/admin', 'phone');
    await signIn(admin, PASSWORD);
    const item = admin
      .locator('.booking-item')
      .filter({ has: admin.getByRole('heading', { name: new RegExp(`№${number} ·`) }) });
    await visible(item.getByText('Гость с Node'));
    await item.getByRole('button', { name: /Подтвердить/ }).click();
    await visible(item.getByText('Подтверждена'));
    const after = (await bodyOf(await apiAt(BASE).cabins[':id'].availability.$get({ param }), 200)).busy;
    expect(after).toContainEqual({ start: checkIn, end: addDays(checkIn, 3) });
    await admin.context().close();
  }, 120_000);

  // Last: it takes the demo away, which the steps above read.
  it('should show the owner «С чего начать» on the first screen, tick a step once done, and take the demo away in one step, leaving a site to fill', async () => {
    const admin = await open('/admin', 'phone');
    await signIn(admin, PASSWORD);
    const list = admin.getByRole('region', { name: 'С чего начать' });
    await visible(list);
    const registry = list.locator('.checklist__item').filter({ hasText: 'Номер в реестре' });
    await visible(registry.getByText(': не сделано'));
    // The owner's own register number: the step goes green.
    expect((await (await adminApi(BASE, PASSWORD)).put('/settings', { registryNumber: 'С05202500777' })).status).toBe(
      200,
    );
    await admin.reload();
    await visible(list.locator('.checklist__item--done').filter({ hasText: 'Номер в реестре' }).getByText(': сделано'));
    expect(await axeViolations(admin, '.checklist')).toEqual([]);

    const before = await (await apiAt(BASE).cabins.$get({ query: {} })).json();
    // «Убрать демо-данные» says what goes before it goes.
    await list.getByRole('button', { name: 'Убрать демо-данные' }).click();
    const dialog = admin.getByRole('alertdialog');
    await visible(dialog.getByText(/Уйдут: \d+\sдомик/));
    await dialog.getByRole('button', { name: 'Убрать демо-данные' }).click();
    await visible(admin.locator('.notices').getByText(/Демо-данные убраны/));
    await (await adminApi(BASE, PASSWORD)).waitPublished(120_000);
    // Every demo cabin goes but the one a real guest asked for above (with that request); the owner's
    // register number stays, the demo's phone does not.
    const after = await (await apiAt(BASE).cabins.$get({ query: {} })).json();
    expect(after.map((c) => c.id)).toEqual([requested]);
    const settings = await (await apiAt(BASE).settings.$get()).json();
    expect(settings).toMatchObject({ phone: '', registryNumber: 'С05202500777' });
    const catalogue = await publicText(admin, '/cabins');
    expect(catalogue.text).toContain(after[0]!.name.replace(/\s+/g, ' '));
    for (const gone of before.filter((c) => c.id !== requested))
      expect(catalogue.text).not.toContain(gone.name.replace(/\s+/g, ' '));
    await admin.context().close();
  }, 240_000);
});
