import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, publicText, signIn, visible, waitLive, waitPublished } from './helpers.ts';

const COMMENT = 'Только вернулись из «Чайки» — очень понравилось!';

describe('the owner moderates reviews', () => {
  const { baseURL, openPage } = useBrowser();

  afterAll(async () => {
    // Vika's demo review is pending again for the other journeys.
    const api = await adminApi(baseURL);
    const vika = (await (await api.client.reviews.$get({ query: {} })).json()).find((r) => r.name === 'Вика');
    if (vika?.approved) await api.put(`/reviews/${vika.id}`, { approved: false });
    await api.logout();
    await waitLive(baseURL);
  });

  it('should approve a pending review, show it on /reviews, then hide it again', async () => {
    const page = await openPage('/admin#reviews', 'phone');
    await signIn(page);
    // Other journeys may have sent reviews too: count what the API holds.
    const api = await adminApi(baseURL);
    const all = await (await api.client.reviews.$get({ query: {} })).json();
    await api.logout();
    const pending = all.filter((r) => !r.approved).length;
    await visible(page.getByText(new RegExp(`^${pending} отзыв(а|ов)? жд(ёт|ут) модерации\\.`)));
    await page.getByRole('button', { name: /^На модерации/ }).click();
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count()).toBe(pending);
    const vika = cards.filter({ has: page.getByRole('heading', { name: 'Вика' }) });
    await visible(vika.getByText('На модерации'));
    await visible(vika.getByText('vika@example.ru'));
    await visible(vika.getByRole('img', { name: 'Оценка 5 из 5' }));

    // Deleting asks first; «Отмена» keeps the review.
    await vika.getByRole('button', { name: /Удалить/ }).click();
    await visible(page.getByRole('alertdialog').getByText('Вы уверены, что хотите удалить этот отзыв?'));
    await page.getByRole('alertdialog').getByRole('button', { name: 'Отмена' }).click();

    await vika.getByRole('button', { name: /Одобрить/ }).click();
    await visible(notice(page, /одобрен/));
    await page.getByRole('button', { name: /^Все/ }).click();
    await visible(vika.getByText('Одобрен', { exact: true }));
    await waitPublished(page);
    expect((await publicText(page, '/reviews')).text).toContain(COMMENT);

    await page.goto('/admin#reviews');
    await visible(vika);
    await vika.getByRole('button', { name: /Скрыть/ }).click();
    await visible(notice(page, /скрыт/));
    await visible(vika.getByText('На модерации'));
    await waitPublished(page);
    expect((await publicText(page, '/reviews')).text).not.toContain(COMMENT);
  });
});
