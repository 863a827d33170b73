import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorAnswer } from '../../../schema/answers.ts';
import { useBrowser, type ViewportName } from '../browser.ts';
import { adminApi, approvedReviews, flat, solveCaptcha, textOf, visible } from './helpers.ts';

const PAGE_SIZE = 10;
const MONTHS = 'января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря';

/** Opens the review form (the click also wakes the island, and is replayed once it is up). */
async function openForm(page: Page) {
  await page.getByRole('button', { name: 'Оставить отзыв' }).click();
  const form = page.getByRole('form', { name: 'Новый отзыв' });
  await visible(form);
  return form;
}

describe.each<ViewportName>(['phone', 'desktop'])('the reviews page on a %s', (viewport) => {
  const { baseURL, openPage } = useBrowser();
  const submitted: string[] = [];

  afterAll(async () => {
    if (submitted.length === 0) return;
    // Put the demo content back for the other journeys: delete the reviews sent here.
    const api = await adminApi(baseURL);
    for (const r of await (await api.client.reviews.$get({ query: {} })).json())
      if (submitted.includes(r.name)) await api.del(`/reviews/${r.id}`);
    await api.waitPublished();
    await api.logout();
  });

  it('should list approved reviews 10 a page with initial, name, Russian date, stars and a 120-character preview', async () => {
    const reviews = await approvedReviews(baseURL);
    expect(reviews.length).toBeGreaterThan(PAGE_SIZE);
    const page = await openPage('/reviews', viewport);
    await visible(page.getByRole('heading', { level: 1, name: 'Отзывы гостей' }));
    const cards = page.locator('#reviews').getByRole('article');
    expect(await cards.count()).toBe(PAGE_SIZE);
    for (const [i, review] of reviews.slice(0, PAGE_SIZE).entries()) {
      const card = cards.nth(i);
      expect(await textOf(card.locator('.avatar'))).toBe(review.name.trim()[0]!.toUpperCase());
      expect(await textOf(card.getByRole('heading'))).toBe(review.name);
      expect(await textOf(card.locator('time'))).toMatch(new RegExp(`^\\d{1,2} (${MONTHS}) \\d{4}$`));
      await visible(card.getByRole('img', { name: `Оценка ${review.rating} из 5` }));
      const text = flat(await card.locator('.review-card__text').innerText());
      if (review.comment.length > 120) {
        expect(text.endsWith('...')).toBe(true);
        expect(text.length).toBeLessThanOrEqual(123);
        await visible(card.getByRole('button', { name: /Читать полностью/ }));
      } else {
        expect(text).toBe(flat(review.comment));
        expect(await card.getByRole('button', { name: /Читать полностью/ }).count()).toBe(0);
      }
    }
  });

  it('should load no JavaScript framework until the visitor reaches for the form or the list', async () => {
    const page = await openPage('/reviews', viewport);
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(() => performance.getEntriesByType('resource').some((r) => /client\.\w+\.js/.test(r.name))),
    ).toBe(false);
    // Nor Astro's island runtime in the page: the places are hydrated by the page's own line.
    expect(await page.locator('astro-island').count()).toBe(0);
  });

  it('should page like the catalogue and scroll back to the list', async () => {
    const reviews = await approvedReviews(baseURL);
    const pages = Math.ceil(reviews.length / PAGE_SIZE);
    const page = await openPage('/reviews', viewport);
    const pager = page.getByRole('navigation', { name: 'Страницы отзывов' });
    expect(await pager.getByRole('button', { name: /Назад/ }).isDisabled()).toBe(true);
    expect(await textOf(page.locator('#reviews .pager__status'))).toBe(`Страница 1 из ${pages}`);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    // (The first click also wakes the list up and is replayed when it is ready.)
    await pager.getByRole('button', { name: /Далее/ }).click();
    await visible(page.locator('#reviews .pager__status', { hasText: `Страница 2 из ${pages}` }));
    expect(await page.locator('#reviews').getByRole('article').count()).toBe(
      Math.min(PAGE_SIZE, reviews.length - PAGE_SIZE),
    );
    await visible(page.locator('#reviews').getByRole('heading', { name: reviews[PAGE_SIZE]!.name }));
    // The list's top comes back into view.
    await page.waitForFunction(
      () => document.querySelector('.reviews-list')!.getBoundingClientRect().top < window.innerHeight / 2,
      null,
      { timeout: 5_000 },
    );
    await pager.getByRole('button', { name: 'Страница 1' }).click();
    await visible(page.locator('#reviews .pager__status', { hasText: `Страница 1 из ${pages}` }));
  });

  it('should open the full review in a modal and close it with Закрыть, Escape or the background', async () => {
    const reviews = await approvedReviews(baseURL);
    const long = reviews.slice(0, PAGE_SIZE).find((r) => r.comment.length > 120)!;
    const page = await openPage('/reviews', viewport);
    const card = page
      .locator('#reviews')
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: long.name, exact: true }) });
    const more = card.getByRole('button', { name: /Читать полностью/ });
    const modal = page.getByRole('dialog', { name: 'Полный отзыв' });
    for (const close of ['button', 'escape', 'background'] as const) {
      await more.click();
      await visible(modal);
      const text = flat(await modal.innerText());
      expect(text).toContain(flat(long.comment));
      expect(text).toContain(long.name);
      await visible(modal.getByRole('img', { name: `Оценка ${long.rating} из 5` }));
      if (close === 'button') await modal.getByRole('button', { name: 'Закрыть', exact: true }).click();
      if (close === 'escape') await page.keyboard.press('Escape');
      if (close === 'background') await page.mouse.click(5, 300);
      await modal.waitFor({ state: 'detached' });
      expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
    }
  });

  it('should open the review named by ?open= (also on page 2), then reset the address to /reviews', async () => {
    const reviews = await approvedReviews(baseURL);
    const target = reviews[reviews.length - 1]!;
    const page = await openPage(`/reviews?open=${target.id}`, viewport);
    const modal = page.getByRole('dialog', { name: 'Полный отзыв' });
    await visible(modal);
    expect(flat(await modal.innerText())).toContain(flat(target.comment));
    await page.waitForURL(`${baseURL}/reviews`);
    await page.keyboard.press('Escape');
    expect(await textOf(page.locator('#reviews .pager__status'))).toMatch(/^Страница 2 из/);
  });

  it('should draw the form and the full review styled, though their rules come with their scripts, not in the page', async () => {
    const page = await openPage('/reviews', viewport);
    const html = await (await page.request.get('/reviews')).text();
    expect(html).not.toMatch(/\.review-form[{ ]|\.captcha__question|\.contact-list/);
    const form = await openForm(page);
    const style = (selector: string, property: string) =>
      form
        .locator(selector)
        .first()
        .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
    expect(await style('input.input', 'min-height')).toBe('44px');
    expect(await style('.captcha__question', 'background-color')).not.toBe('rgba(0, 0, 0, 0)');
    // The honeypot stays out of sight.
    expect(
      await form
        .locator('.hp')
        .first()
        .evaluate((el) => el.getBoundingClientRect().right),
    ).toBeLessThan(0);
    await page.goto('/reviews');
    await page
      .getByRole('button', { name: /Читать полностью/ })
      .first()
      .click();
    const backdrop = page.locator('.modal-backdrop');
    await visible(page.getByRole('dialog', { name: 'Полный отзыв' }));
    expect(await backdrop.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await page.locator('.review-modal__text').evaluate((el) => getComputedStyle(el).whiteSpace)).toBe(
      'pre-line',
    );
  });

  it('should toggle the form, keep submit disabled until the captcha is solved, and check the answer', async () => {
    const page = await openPage('/reviews', viewport);
    const form = await openForm(page);
    await visible(page.getByRole('button', { name: 'Скрыть форму' }));
    const submit = form.getByRole('button', { name: 'Отправить отзыв' });
    expect(await submit.isDisabled()).toBe(true);
    await visible(form.getByText('Пожалуйста, подтвердите, что вы не робот'));
    const question = form.locator('.captcha__question');
    const answer = form.getByLabel(/Решите пример/);
    expect(await answer.getAttribute('maxlength')).toBe('3');
    const q = await textOf(question);
    expect(q).toMatch(/^\d+ [+\u2212\u00d7] \d+ = \?$/);
    const right = solveCaptcha(q);
    await answer.fill(String(right + 1));
    await visible(form.getByRole('img', { name: 'Неверно' }));
    expect(await answer.getAttribute('aria-invalid')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    // Spaces around the answer are forgiven, as far as the field's three characters allow (10 × 10
    // leaves no room for one).
    await answer.fill(String(right).length < 3 ? ` ${right}` : String(right));
    // Exact: «Неверно» holds «верно».
    await visible(form.getByRole('img', { name: 'Верно', exact: true }));
    expect(await submit.isDisabled()).toBe(false);
    // A new question resets it.
    await form.getByRole('button', { name: 'Другой пример' }).click();
    expect(await answer.inputValue()).toBe('');
    expect(await submit.isDisabled()).toBe(true);
    // Hiding keeps what was typed.
    await form.getByRole('textbox', { name: /^Имя/ }).fill('Лейла');
    await page.getByRole('button', { name: 'Скрыть форму' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Оставить отзыв' }).click();
    expect(await form.getByRole('textbox', { name: /^Имя/ }).inputValue()).toBe('Лейла');
  });

  it('should count the characters left, turn red under 50 and stop at 1000', async () => {
    const page = await openPage('/reviews', viewport);
    const form = await openForm(page);
    const comment = form.getByRole('textbox', { name: /^Отзыв/ });
    const counter = form.locator('.counter');
    expect(await textOf(counter)).toBe('Осталось 1000 символов');
    await comment.fill('а'.repeat(951));
    expect(await textOf(counter)).toBe('Осталось 49 символов');
    expect(await counter.getAttribute('class')).toContain('counter--warn');
    await comment.fill('а'.repeat(949));
    expect(await textOf(counter)).toBe('Осталось 51 символ');
    expect(await counter.getAttribute('class')).not.toContain('counter--warn');
    await comment.fill('б'.repeat(1200));
    expect((await comment.inputValue()).length).toBe(1000);
    expect(await textOf(counter)).toBe('Осталось 0 символов');
  });

  it('should ask for the required fields and the consent before sending', async () => {
    const page = await openPage('/reviews', viewport);
    const form = await openForm(page);
    const solve = async () =>
      form.getByLabel(/Решите пример/).fill(String(solveCaptcha(await textOf(form.locator('.captcha__question')))));
    await solve();
    await form.getByRole('button', { name: 'Отправить отзыв' }).click();
    await visible(form.getByRole('alert').getByText('Пожалуйста, заполните все обязательные поля'));
    await form.getByRole('textbox', { name: /^Имя/ }).fill('   ');
    await form.getByRole('textbox', { name: /^Email/ }).fill('guest@example.ru');
    await form.getByRole('textbox', { name: /^Отзыв/ }).fill('Хорошо');
    await form.getByRole('button', { name: 'Отправить отзыв' }).click();
    await visible(form.getByRole('alert').getByText('Пожалуйста, заполните все обязательные поля'));
    await form.getByRole('textbox', { name: /^Имя/ }).fill('Гость');
    await form.getByRole('button', { name: 'Отправить отзыв' }).click();
    await visible(form.getByRole('alert').getByText('Необходимо согласие на обработку персональных данных'));
    expect(await form.getByRole('textbox', { name: /^Email/ }).getAttribute('type')).toBe('email');
    expect(await form.getByRole('link', { name: 'политика конфиденциальности' }).getAttribute('href')).toBe('/privacy');
  });

  it('should send a review for moderation and thank the visitor', async () => {
    const name = `Гость ${viewport} ${Date.now() % 100000}`;
    const page = await openPage('/reviews', viewport);
    const form = await openForm(page);
    await form.getByRole('textbox', { name: /^Имя/ }).fill(name);
    await form.getByRole('textbox', { name: /^Email/ }).fill('guest@example.ru');
    await form.getByRole('radio', { name: '4 звезды' }).check({ force: true });
    await form.getByRole('textbox', { name: /^Отзыв/ }).fill('Всё понравилось, спасибо!');
    await form.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ }).check();
    await form.getByLabel(/Решите пример/).fill(String(solveCaptcha(await textOf(form.locator('.captcha__question')))));
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/reviews') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Отправить отзыв' }).click();
    expect((await sent).status()).toBe(201);
    submitted.push(name);
    await visible(page.getByRole('heading', { name: 'Спасибо за отзыв!' }));
    await visible(page.getByText('Ваш отзыв отправлен на модерацию и появится на сайте после проверки.'));
    // It waits for moderation: not public yet.
    expect((await approvedReviews(baseURL)).some((r) => r.name === name)).toBe(false);
    await page.getByRole('button', { name: 'Вернуться к отзывам' }).click();
    await page.waitForURL('**/reviews#reviews');
    await visible(page.getByRole('button', { name: 'Оставить отзыв' }));
  });
});

describe('the review API', () => {
  const { baseURL } = useBrowser();

  it('should refuse a review sent without the visitor’s consent', async () => {
    const res = await fetch(`${baseURL}/api/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Без согласия', email: 'x@example.ru', rating: 5, comment: 'Текст' }),
    });
    expect(res.status).toBe(400);
    // Sent as the typed client would refuse to: the refusal is read by the API's error schema.
    expect(errorAnswer.parse(await res.json()).error).toBe('Необходимо согласие на обработку персональных данных');
  });
});
