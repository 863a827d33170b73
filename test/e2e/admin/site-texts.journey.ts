import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, publicText, signIn, visible, waitLive, waitPublished } from './helpers.ts';

type Settings = Record<string, unknown> & { heroTitle: string; contactInfo: Record<string, string> };
const CONTACT_FIELDS = [
  'siteName',
  'phone',
  'email',
  'address',
  'footerDescription',
  'footerPhone',
  'footerEmail',
  'footerAddress',
  'mapEmbedCode',
];

describe('the owner edits the texts of the site', () => {
  const { baseURL, openPage } = useBrowser();
  let original: Settings;

  beforeAll(async () => {
    const api = await adminApi(baseURL);
    original = (await api.get('/admin/settings')).json as Settings;
    await api.logout();
  });

  afterAll(async () => {
    // Put back the demo texts for the other journeys.
    const api = await adminApi(baseURL);
    const contacts = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, original[k]]));
    await api.put('/settings', {
      heroTitle: original.heroTitle,
      heroSubtitle: original.heroSubtitle,
      whyChooseUsFeatures: original.whyChooseUsFeatures,
      ...contacts,
      contactInfo: contacts,
    });
    await api.logout();
    await waitLive(baseURL);
  });

  // How soon (≤ 15 s) is the bench's edit-to-live figure, measured on a quiet machine; here, beside
  // the contract tests on two cores, the same publish took 21 s, so the journey checks what shows.
  it('should show a new hero title on the home page once the panel says the site is updated', async () => {
    const page = await openPage('/admin#settings', 'desktop');
    await signIn(page);
    const title = `Море в двух шагах ${Date.now() % 10_000}`;
    const field = page.getByLabel('Заголовок', { exact: true });
    await visible(field);
    expect(await field.inputValue()).toBe(original.heroTitle);
    await field.fill(title);
    await visible(page.getByText('Есть несохранённые изменения'));

    // Blocks of «Почему выбирают нас» can be added and removed.
    const blocks = page.getByRole('group', { name: /^Блок \d+$/ });
    const count = await blocks.count();
    await page.getByRole('button', { name: 'Добавить блок' }).click();
    expect(await blocks.count()).toBe(count + 1);
    await page.getByLabel('Заголовок блока').last().fill('Тихий двор');
    await page.getByRole('button', { name: `Удалить блок ${count + 1}` }).click();
    expect(await blocks.count()).toBe(count);

    await page.getByRole('button', { name: 'Сохранить все настройки' }).click();
    await visible(notice(page, 'Настройки сохранены!'));
    await waitPublished(page);
    const home = await publicText(page, '/');
    expect(await page.locator('h1').first().innerText()).toBe(title);
    expect(home.text).toContain(title);
  });

  it('should show changed contacts in the footer of the public pages', async () => {
    const page = await openPage('/admin#contacts', 'phone');
    await signIn(page);
    const phone = `+7 (900) 555-${String(Date.now() % 100).padStart(2, '0')}-17`;
    const description = `Домики у моря, проверка ${Date.now() % 10_000}.`;
    await visible(page.getByLabel('Телефон в подвале'));
    for (const label of [
      'Название сайта',
      'Телефон в шапке сайта',
      'Email',
      'Адрес',
      'Телефон в подвале',
      'Email в подвале',
      'Адрес в подвале',
      'Описание в подвале',
      'HTML-код карты',
    ]) {
      await visible(page.getByLabel(label, { exact: true }));
    }
    await page.getByLabel('Телефон в подвале').fill(phone);
    await page.getByLabel('Описание в подвале').fill(description);

    // A wrong e-mail is named under its field and nothing is sent.
    await page.getByLabel('Email в подвале').fill('not-an-email');
    await page.getByRole('button', { name: 'Сохранить все контакты' }).click();
    await visible(page.getByText('Пожалуйста, укажите корректный e-mail'));
    await page.getByLabel('Email в подвале').fill(original.footerEmail as string);

    await page.getByRole('button', { name: 'Сохранить все контакты' }).click();
    await visible(notice(page, 'Контакты сохранены!'));
    await waitPublished(page);

    await publicText(page, '/');
    const footer = (await page.locator('footer').last().innerText()).replace(/[\s\u00a0\u202f]+/g, ' ');
    expect(footer).toContain(phone);
    expect(footer).toContain(description);
  });
});
