import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { E2E_ADMIN_PASSWORD, gone, openTab, signIn, visible } from '../admin/helpers.ts';

describe('signing in and out of the admin panel', () => {
  const { openPage } = useBrowser();

  it('should refuse a wrong password, then let the owner in with the right one', async () => {
    const page = await openPage('/admin', 'phone');
    await visible(page.getByLabel('Логин'));
    // Both fields are required before anything is sent.
    await page.getByRole('button', { name: 'Войти' }).click();
    await visible(page.getByText('Введите логин и пароль'));

    await page.getByLabel('Логин').fill('admin');
    await page.getByLabel('Пароль').fill('not-the-password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await visible(page.getByRole('alert').getByText('Неверный логин или пароль'));
    // The message sits above the button.
    const message = await page.getByText('Неверный логин или пароль').boundingBox();
    const button = await page.getByRole('button', { name: 'Войти' }).boundingBox();
    expect(message!.y).toBeLessThan(button!.y);

    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Разделы панели' });
    // «Сегодня» first, then «Заявки» (with the count of new ones), where the panel opens.
    const labels = (await nav.getByRole('link').allInnerTexts()).map((t) =>
      t.replace(/\d+\s*(новых|непрочитанных)/, '').trim(),
    );
    // «Журнал» last: the owner's; a manager has no such tab (account-2fa.journey.ts).
    expect(labels).toEqual([
      'Сегодня',
      'Заявки',
      'Сообщения',
      'Сводка',
      'Домики',
      'Календарь',
      'Галерея',
      'Контакты',
      'Отзывы',
      'Настройки',
      'Аккаунт',
      'Журнал',
    ]);
    expect(await nav.getByRole('link', { name: /Заявки/ }).getAttribute('aria-current')).toBe('page');
    await visible(page.getByRole('group', { name: 'Какие заявки показать' }));
  });

  it('should show the login screen without the panel’s code, and fetch it once the owner starts typing', async () => {
    const page = await openPage('about:blank', 'phone');
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await page.goto('/admin');
    await visible(page.getByLabel('Логин'));
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => s.includes('/Panel.'))).toBe(false);
    await page.getByLabel('Логин').focus();
    await expect.poll(() => scripts.some((s) => s.includes('/Panel.')), { timeout: 10_000 }).toBe(true);
  });

  it('should say so when the panel’s code does not arrive, and open it after a reload', async () => {
    const page = await openPage('/admin', 'phone');
    await page.route('**/_astro/Panel.*.js', (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Логин').fill('admin');
    await page.getByLabel('Пароль').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Войти' }).click();
    await visible(page.getByRole('alert').getByText(/Не удалось загрузить панель/));
    // The connection is back: the reload keeps the session and shows the panel.
    await page.unroute('**/_astro/Panel.*.js');
    await page.getByRole('button', { name: 'Обновить страницу' }).click();
    await visible(page.getByRole('navigation', { name: 'Разделы панели' }));
  });

  it('should end the session on «Выйти», on the server too', async () => {
    const page = await openPage('/admin', 'desktop');
    await signIn(page);
    await page.getByRole('button', { name: 'Выйти' }).click();
    await visible(page.getByRole('button', { name: 'Войти' }));
    await visible(page.getByText('Вы вышли из админ панели.'));
    const res = await page.context().request.get('/api/admin/session');
    expect(res.status()).toBe(401);
    // A reload stays signed out.
    await page.reload();
    await visible(page.getByRole('button', { name: 'Войти' }));
  });

  it('should return to the login form when the session has ended, keeping unsaved edits', async () => {
    const page = await openPage('/admin#contacts', 'phone');
    await signIn(page);
    await openTab(page, 'Контакты');
    const siteName = page.getByLabel('Название сайта');
    await visible(siteName);
    const before = await siteName.inputValue();
    await siteName.fill(`${before} (черновик)`);

    // The server forgets the session (as it does 30 minutes after login) while the form is open.
    await page.context().request.post('/api/admin/logout');
    await page.getByRole('button', { name: 'Сохранить все контакты' }).click();

    await visible(page.getByRole('button', { name: 'Войти' }));
    await visible(page.getByText('Сеанс завершён.'));
    await visible(page.getByText(/Несохранённые изменения \(«Контакты»\) не потеряны/));

    // After signing in again the edit is still there, said so, and can be dropped.
    await signIn(page);
    await openTab(page, 'Контакты');
    expect(await page.getByLabel('Название сайта').inputValue()).toBe(`${before} (черновик)`);
    await visible(page.getByText('Восстановлены несохранённые изменения'));
    await page.getByRole('button', { name: 'Отменить изменения' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Отменить изменения' }).click();
    expect(await page.getByLabel('Название сайта').inputValue()).toBe(before);
  });

  it('should show the login form on load when the session is no longer valid', async () => {
    const page = await openPage('/admin', 'desktop');
    await signIn(page);
    await page.context().request.post('/api/admin/logout');
    await page.reload();
    await visible(page.getByRole('button', { name: 'Войти' }));
    await gone(page.getByRole('navigation', { name: 'Разделы панели' }));
  });

  it('should tell a throttled sign-in in Russian', async () => {
    // Not a real flood (failures are counted per address and other journeys need to sign in):
    // the panel's answer to the API's 429 is checked by answering the call with one.
    const page = await openPage('/admin', 'phone');
    await page.route('**/api/admin/login', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Слишком много неудачных попыток входа. Попробуйте позже.' }),
      }),
    );
    await page.getByLabel('Логин').fill('admin');
    await page.getByLabel('Пароль').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Войти' }).click();
    await visible(page.getByRole('alert').getByText('Слишком много неудачных попыток входа. Попробуйте позже.'));
  });
});
