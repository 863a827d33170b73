import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { apiAt, bodyOf } from '../../typed-api.ts';
import { adminApi } from '../admin-api.ts';
import { E2E_ADMIN_PASSWORD } from '../global-setup.ts';
import { hidden, visible } from '../public/helpers.ts';

export { adminApi, E2E_ADMIN_PASSWORD, visible };
export const ADMIN_USERNAME = 'admin';
/** The patience of journeys that only need the change to arrive (builds run slower on a busy machine). */
const PUBLISH_PATIENCE_MS = 45_000;

/** Signs in through the panel's form at the current page. */
export async function signIn(page: Page, password = E2E_ADMIN_PASSWORD, username = ADMIN_USERNAME) {
  await page.getByLabel('Логин').fill(username);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await visible(page.getByRole('navigation', { name: 'Разделы панели' }));
}

/** Waits for a locator to go (the visitor journeys call it `hidden`). */
export const gone = hidden;

export async function openTab(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Разделы панели' }).getByRole('link', { name: label }).click();
  await visible(page.getByRole('heading', { level: 2, name: label }));
}

/** A 360px phone: nothing scrolls sideways and every control `controls` finds is at least 44px tall. */
export async function checkPhoneLayout(page: Page, controls: string) {
  const { scroll, width, small } = await page.evaluate((selector) => {
    const small = [...document.querySelectorAll<HTMLElement>(selector)]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height < 43.5)
      .map(({ el, box }) => `${el.tagName} «${el.textContent?.trim() || el.id}» ${box.height}px`);
    return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, small };
  }, controls);
  expect(scroll).toBeLessThanOrEqual(width);
  expect(small).toEqual([]);
}

/** One of the panel's messages in its live regions. */
export const notice = (page: Page, text: string | RegExp) => page.locator('.notices').getByText(text);

/**
 * Waits for one of the panel's messages; when it does not come, the failure says what the panel
 * said instead (an error stays until dismissed, so a refusal is there to read).
 */
export async function noticed(page: Page, text: string | RegExp, timeout = 20_000) {
  try {
    await visible(notice(page, text), timeout);
  } catch (err) {
    const said = (
      await page
        .locator('.notices')
        .innerText()
        .catch(() => '')
    ).trim();
    throw new Error(`${(err as Error).message}\nThe panel said instead: «${said || 'nothing'}»`);
  }
}

/** Waits until the panel says the public site carries the last save. */
export async function waitPublished(page: Page, timeout = PUBLISH_PATIENCE_MS) {
  try {
    await visible(page.locator('.publish').getByText('Сайт обновлён'), timeout);
  } catch (err) {
    // Say what the panel and the API showed instead.
    const shown = await page
      .locator('.publish')
      .innerText()
      .catch(() => '?');
    const api = await page
      .context()
      .request.get('/api/admin/publish')
      .then(
        (r) => r.text(),
        () => '?',
      );
    throw new Error(`the site was not published within ${timeout} ms: the panel says «${shown}», the API ${api}`, {
      cause: err,
    });
  }
}

/**
 * The visible text of a public page, with every kind of space made one plain space. Always
 * fetched anew: `wrangler dev` may keep a rewritten file's old ETag for a moment, so a
 * browser's revalidation could get a 304 and show the page it had (a local-server quirk;
 * Cloudflare deploys carry fresh ETags).
 */
export async function publicText(page: Page, path: string): Promise<{ status: number; text: string }> {
  if (!uncached.has(page)) {
    // Routing requests turns the browser's HTTP cache off for this page.
    await page.route('**/*', (route) => route.continue());
    uncached.add(page);
  }
  const res = await page.goto(path);
  const text = res && res.ok() ? await page.locator('body').innerText() : '';
  return { status: res?.status() ?? 0, text: text.replace(/[\s\u00a0\u202f]+/g, ' ') };
}

const uncached = new WeakSet<Page>();

/** Every page of the public catalogue (/cabins, /cabins/2, …), as one text. */
export async function catalogueText(page: Page): Promise<string> {
  let all = '';
  for (let n = 1; n < 20; n++) {
    const { status, text } = await publicText(page, n === 1 ? '/cabins' : `/cabins/${n}`);
    if (status !== 200) break;
    all += `\n${text}`;
  }
  return all;
}

/** A small real photo: a gradient with a colour of its own, as JPEG or PNG. */
export async function photo(name: string, hue: number): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const width = 64;
  const height = 48;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (hue + x * 3) % 256;
      pixels[i + 1] = (y * 5) % 256;
      pixels[i + 2] = (255 - hue) % 256;
    }
  }
  const img = sharp(pixels, { raw: { width, height, channels: 3 } });
  const png = name.endsWith('.png');
  return { name, mimeType: png ? 'image/png' : 'image/jpeg', buffer: await (png ? img.png() : img.jpeg()).toBuffer() };
}

/** Waits until the live build carries every content change made so far. */
export async function waitLive(baseURL: string, timeoutMs = 60_000) {
  const api = await adminApi(baseURL);
  try {
    await api.waitPublished(timeoutMs);
  } finally {
    await api.logout();
  }
}

type GuestRequest = Parameters<ReturnType<typeof apiAt>['bookings']['$post']>[0]['json'];

/**
 * A guest's request sent as the booking card sends it, then confirmed as it would be: paid on
 * ЮKassa's stand-in when prepayment is on, else confirmed by the owner (`owner`'s session, or one
 * of its own). Its id and the token of its guest's page.
 */
export async function bookConfirmed(
  baseURL: string,
  yookassaUrl: string,
  json: GuestRequest,
  owner?: Awaited<ReturnType<typeof adminApi>>,
): Promise<{ id: number; token: string }> {
  const booked = await bodyOf(await apiAt(baseURL).bookings.$post({ json }), 201);
  await confirmBooked(baseURL, yookassaUrl, booked, owner);
  return { id: booked.id, token: booked.guestUrl.split('/b/')[1]! };
}

/**
 * A booking just made, made firm: paid on ЮKassa's stand-in where the site asks for prepayment,
 * else confirmed by the owner (signed in here for it when no session is given).
 */
export async function confirmBooked(
  baseURL: string,
  yookassaUrl: string,
  booked: { id: number; payment?: { confirmationUrl: string } | null },
  owner?: Awaited<ReturnType<typeof adminApi>>,
): Promise<void> {
  if (booked.payment) {
    const id = booked.payment.confirmationUrl.split('/pay/')[1]!;
    expect((await fetch(`${yookassaUrl}/_payments/${id}/succeed`, { method: 'POST' })).status).toBe(200);
    return;
  }
  const api = owner ?? (await adminApi(baseURL));
  try {
    expect((await api.put(`/admin/bookings/${booked.id}`, { status: 'confirmed' })).status).toBe(200);
  } finally {
    if (!owner) await api.logout();
  }
}
