import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../../schema/dates.ts';
import { MSG } from '../../../schema/messages.ts';
import { stayRules, type Availability } from '../../../site/lib/stay-picker.ts';
import type { MetrikaRequest } from '../../../stand-ins/metrika.ts';
import { INDEXNOW_OFF_NO_DOMAIN } from '../../../schema/indexnow.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, gone, notice, signIn, visible, waitPublished } from '../admin/helpers.ts';

// «Продвижение» as it is used, on a phone: the owner pastes Yandex Webmaster's meta tag and the
// Metrika counter, the site republishes with the tag on its home page; a visitor is asked first,
// and nothing of Metrika (the local stand-in for its host, METRIKA_URL) loads before «Согласен».
// After it, the counter hears of each step to a paid prepayment, and never the guest's token.

type Cabin = { id: number; name: string };
type Promotion = { webmasterCode: string; metrikaId: string; indexNowKey: string };

const CODE = '7c1e5b2a9d04f3e6';
const META = `<meta name="yandex-verification" content="${CODE}" />`;
const COUNTER = '98765432';

describe('the owner turns on Yandex Webmaster and Metrika, and each visitor decides about Metrika', () => {
  const { baseURL, openPage } = useBrowser();
  const metrika = inject('metrikaUrl');
  const yookassa = inject('yookassaUrl');
  const mine: number[] = [];
  let before: { bookingMode: string; promotion: Promotion };

  beforeAll(async () => {
    await fetch(`${metrika}/_stand-in/reset`, { method: 'POST' });
    const api = await adminApi(baseURL);
    before = (await api.get('/admin/settings')).json as typeof before;
    await api.logout();
  });

  afterAll(async () => {
    // The other journeys and the visitor tests run without a counter and with requests.
    const api = await adminApi(baseURL);
    for (const id of mine) await api.del(`/admin/bookings/${id}`);
    await api.put('/settings', { bookingMode: before.bookingMode, promotion: before.promotion });
    await api.waitPublished();
    await api.logout();
  });

  const requests = async () => (await (await fetch(`${metrika}/_stand-in/requests`)).json()) as MetrikaRequest[];
  /** The `ym(...)` calls and dataLayer pushes the stand-in's tag sent back. */
  const hits = async () => (await requests()).flatMap((r) => (r.body ? [r.body] : []));
  const goals = async () => (await hits()).flatMap((h) => (h.call?.[1] === 'reachGoal' ? [h.call[2] as string] : []));
  async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    const end = Date.now() + 15_000;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`${what}: the stand-in has ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  /** A phone's fresh browser that notes every request it makes to Metrika's host, from the first page on. */
  async function visitor(path: string): Promise<{ page: Page; toMetrika: string[] }> {
    // Reduced motion: the page scrolls at once (a focused control is measured where it comes to rest).
    const page = await openPage('about:blank', 'phone', { reducedMotion: 'reduce' });
    const toMetrika: string[] = [];
    page.context().on('request', (r) => {
      if (r.url().startsWith(metrika)) toMetrika.push(r.url());
    });
    await page.goto(path, { waitUntil: 'load' });
    return { page, toMetrika };
  }
  const banner = (page: Page) => page.getByRole('complementary', { name: 'Яндекс Метрика' });
  /** The consent module has come and run: it is loaded after the page's load (site/islands/metrika-consent.ts). */
  async function consentRan(page: Page) {
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((r) => /\/_astro\/metrika-consent\./.test(r.name)),
    );
    await page.waitForTimeout(200);
  }

  it('should keep Metrika off the site until a counter is set, and then until the visitor says «Согласен»; count the goals to a paid prepayment and never see the token', async () => {
    // No counter yet: no banner, no byte of Metrika in the page, nothing asked of its host.
    const first = await visitor('/');
    // The late modules have come (the site's own counting among them), and Metrika's is not one.
    await first.page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((r) => /\/_astro\/visit-count\./.test(r.name)),
    );
    await first.page.waitForTimeout(300);
    expect(
      await first.page.evaluate(
        () => performance.getEntriesByType('resource').filter((r) => /metrika/.test(r.name)).length,
      ),
    ).toBe(0);
    expect(await banner(first.page).count()).toBe(0);
    const plain = await (await fetch(`${baseURL}/`)).text();
    expect(plain).not.toContain('yandex-verification');
    expect(plain).not.toContain(metrika);
    expect(plain).not.toContain('metrika');
    expect(first.toMetrika).toEqual([]);
    await first.page.close();

    // Prepayment on, so the guest below can pay (ЮKassa's stand-in, as in the prepayment journey).
    const api = await adminApi(baseURL);
    expect((await api.put('/settings', { bookingMode: 'prepayment' })).status).toBe(200);
    await api.waitPublished();
    await api.logout();
    const all = (await (await fetch(`${baseURL}/api/cabins`)).json()) as Cabin[];
    const weigh = async (path: string) =>
      gzipSync(Buffer.from(await (await fetch(`${baseURL}${path}`)).arrayBuffer())).length;
    const without = await Promise.all(all.map((c) => weigh(`/cabin/${c.id}`)));

    // The owner, on a phone, in «Настройки» → «Продвижение».
    const owner = await openPage('/admin#settings/promotion', 'phone');
    await signIn(owner);
    const form = owner.getByRole('form', { name: 'Продвижение' });
    await visible(form);
    await visible(owner.getByRole('heading', { name: 'Как попасть на Яндекс Карты и в поиск' }));
    await visible(owner.getByRole('link', { name: /yandex\.ru\/sprav/ }));
    // IndexNow waits for a domain of the site's own (the stack's SITE_URL is local), and says so.
    const indexNow = owner.getByRole('region', { name: 'IndexNow: быстрое обновление в Яндексе' });
    await visible(indexNow.getByText('Выключено'));
    await visible(indexNow.getByText(INDEXNOW_OFF_NO_DOMAIN));
    const code = form.getByLabel('Код подтверждения Яндекс Вебмастера');
    const counter = form.getByLabel('Номер счётчика Яндекс Метрики');
    // A code Webmaster never gives is refused at its field, with what to do.
    await code.fill('код вебмастера');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await visible(form.getByText(MSG.webmasterCodeInvalid));
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    // The meta tag pasted whole, as Webmaster shows it.
    await code.fill(META);
    await counter.fill(COUNTER);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await visible(notice(owner, 'Настройки сохранены!'));
    expect(await code.inputValue()).toBe(CODE);
    expect(await axeViolations(owner)).toEqual([]);
    await waitPublished(owner, 90_000);

    // Webmaster finds its code on the home page.
    const home = await (await fetch(`${baseURL}/`)).text();
    expect(home).toContain(`<meta name="yandex-verification" content="${CODE}">`);
    expect(home).toContain(`data-metrika-counter="${COUNTER}"`);
    expect(gzipSync(Buffer.from(home)).length).toBeLessThanOrEqual(14 * 1024);
    // The banner and Metrika come after the page's load: a page carries only the line that loads
    // them and Metrika's host in its CSP, under 120 bytes compressed.
    const withCounter = await Promise.all(all.map((c) => weigh(`/cabin/${c.id}`)));
    for (const [i, c] of all.entries()) expect(withCounter[i]! - without[i]!, `/cabin/${c.id}`).toBeLessThan(120);

    // A visitor who says no: asked once, then nothing of Metrika on any page.
    const cabin = all[0]!;
    const no = await visitor('/');
    await visible(banner(no.page));
    await visible(banner(no.page).getByRole('link', { name: 'Политика конфиденциальности' }));
    expect(await axeViolations(no.page)).toEqual([]);
    // Both answers are the same size and look: neither is easier to press.
    const yes = banner(no.page).getByRole('button', { name: 'Согласен' });
    const refuse = banner(no.page).getByRole('button', { name: 'Отказаться' });
    const [a, b] = [await yes.boundingBox(), await refuse.boundingBox()];
    expect([Math.round(a!.width), Math.round(a!.height)]).toEqual([Math.round(b!.width), Math.round(b!.height)]);
    expect(await yes.getAttribute('class')).toBe(await refuse.getAttribute('class'));
    // The page's last link, focused from the keyboard, shows above the banner, not under it.
    const last = no.page.locator('footer a').last();
    await no.page.locator('footer a').nth(-2).focus();
    await no.page.keyboard.press('Tab');
    expect(await last.evaluate((a) => a === document.activeElement)).toBe(true);
    const overlap = await last.evaluate((a) => {
      const [link, box] = [a.getBoundingClientRect(), document.querySelector('aside.consent')!.getBoundingClientRect()];
      return { linkBottom: link.bottom, bannerTop: box.top };
    });
    expect(overlap.linkBottom, JSON.stringify(overlap)).toBeLessThanOrEqual(overlap.bannerTop);
    await refuse.click();
    await gone(banner(no.page));
    for (const path of ['/cabins', `/cabin/${cabin.id}`, '/privacy']) {
      await no.page.goto(path, { waitUntil: 'load' });
      await consentRan(no.page);
      expect(await banner(no.page).count(), path).toBe(0);
    }
    // «Изменить выбор о Метрике» on /privacy asks again.
    await no.page.getByRole('button', { name: 'Изменить выбор о Метрике' }).click();
    await visible(banner(no.page));
    expect(await axeViolations(no.page)).toEqual([]);
    await banner(no.page).getByRole('button', { name: 'Отказаться' }).click();
    await gone(banner(no.page));
    await no.page.waitForTimeout(500);
    expect(no.toMetrika).toEqual([]);
    expect(await requests()).toEqual([]);
    await no.page.close();

    // A visitor who agrees: nothing before «Согласен», then the counter and each goal.
    const guest = await visitor('/');
    await visible(banner(guest.page));
    await guest.page.waitForTimeout(500);
    expect(guest.toMetrika).toEqual([]);
    expect(await requests()).toEqual([]);
    await banner(guest.page).getByRole('button', { name: 'Согласен' }).click();
    await gone(banner(guest.page));
    const init = await until('the counter inited', hits, (h) => h.some((x) => x.call?.[1] === 'init'));
    expect(init.find((x) => x.call?.[1] === 'init')!.call).toEqual([
      Number(COUNTER),
      'init',
      expect.objectContaining({ ecommerce: 'dataLayer' }),
    ]);
    expect(guest.toMetrika[0]).toBe(`${metrika}/metrika/tag.js`);

    // Search by dates, the cabin from the results, its card with the dates, the prepayment.
    const { checkIn, checkOut } = await freeStay(cabin.id);
    await guest.page.goto(`/search?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`, { waitUntil: 'load' });
    await until('the search goal', goals, (g) => g.includes('search'));
    expect(await banner(guest.page).count()).toBe(0);
    await guest.page.getByRole('link', { name: cabin.name, exact: true }).click();
    await guest.page.waitForURL(new RegExp(`/cabin/${cabin.id}\\?`));
    const card = guest.page.locator('#booking');
    await card.scrollIntoViewIfNeeded();
    await guest.page.locator('#booking[data-ready]').waitFor();
    await until('the card and dates goals', goals, (g) => g.includes('card') && g.includes('dates'));
    await card.getByLabel('Имя').fill('Гостья Из Метрики');
    await card.getByLabel('Телефон').fill('+7 928 777-30-40');
    await card.getByLabel(/Я согласен/).check();
    await card.getByRole('button', { name: /^Оплатить / }).click();
    await guest.page.waitForURL(`${yookassa}/pay/**`);
    await until('the request goal', goals, (g) => g.includes('request'));
    await guest.page.getByRole('button', { name: 'Оплатить' }).click();
    // Back on the cabin's page: the token has left the address, and the card still knows the booking.
    await guest.page.waitForURL(new RegExp(`/cabin/${cabin.id}\\?booking=\\d+`));
    const status = guest.page.locator('.booking__status');
    await visible(status.getByRole('heading', { name: 'Бронирование подтверждено' }), 20_000);
    const back = new URL(guest.page.url());
    const id = Number(back.searchParams.get('booking'));
    mine.push(id);
    expect(back.searchParams.has('token')).toBe(false);
    const paid = await until('the pay goal and the purchase', hits, (h) =>
      h.some((x) => (x.push as { ecommerce?: unknown } | undefined)?.ecommerce),
    );
    expect(await goals()).toEqual(expect.arrayContaining(['search', 'card', 'dates', 'request', 'pay']));
    const api2 = await adminApi(baseURL);
    const booking = (await (await api2.client.admin.bookings.$get({ query: {} })).json()).find((x) => x.id === id)!;
    await api2.logout();
    const purchase = paid.find((x) => (x.push as { ecommerce?: unknown } | undefined)?.ecommerce)!.push;
    expect(purchase).toEqual({
      ecommerce: {
        currencyCode: 'RUB',
        purchase: {
          actionField: { id: String(id), revenue: booking.total },
          products: [{ id: String(cabin.id), name: cabin.name, price: booking.total, quantity: 1 }],
        },
      },
    });
    // A reload still shows where the booking stands, and counts the payment no second time.
    await guest.page.reload({ waitUntil: 'load' });
    await visible(status.getByRole('heading', { name: 'Бронирование подтверждено' }), 20_000);
    // The guest's own page, from the card's link: Metrika is never loaded there.
    const asked = guest.toMetrika.length;
    const link = status.getByRole('link', { name: 'странице вашего бронирования' });
    const token = (await link.getAttribute('href'))!.slice('/b/'.length);
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    await link.click();
    await guest.page.waitForURL(/\/b\//, { waitUntil: 'load' });
    await guest.page.waitForTimeout(500);
    expect(guest.toMetrika.slice(asked)).toEqual([]);
    expect((await goals()).filter((g) => g === 'pay')).toHaveLength(1);
    // Back to the site from there: Metrika starts again, and is not told where the guest came from.
    const inits = (await hits()).filter((x) => x.call?.[1] === 'init').length;
    await guest.page.locator('header a.logo').click();
    await guest.page.waitForURL(`${baseURL}/`, { waitUntil: 'load' });
    await until('the counter on the home page', hits, (h) => h.filter((x) => x.call?.[1] === 'init').length > inits);
    // Nothing Metrika got names the token or a guest's page.
    const seen = JSON.stringify(await requests());
    expect(seen).not.toContain(token);
    expect(seen).not.toContain('/b/');
    expect(guest.toMetrika.join(' ')).not.toContain(token);
  });

  /** Nights of `cabinId` free for 2 nights from 250 days ahead, its minimum stay met. */
  async function freeStay(cabinId: number) {
    const a = (await (
      await fetch(`${baseURL}/api/cabins/${cabinId}/availability`, { cache: 'no-store' })
    ).json()) as Availability;
    for (let n = 250; n < 350; n++) {
      const checkIn = addDays(a.from, n);
      const checkOut = addDays(checkIn, 2);
      if (
        !a.busy.some((b) => b.start < checkOut && checkIn < b.end) &&
        stayRules(a).quote(checkIn, checkOut).minNights <= 2
      )
        return { checkIn, checkOut };
    }
    throw new Error('no free stay');
  }
});
