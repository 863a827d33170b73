import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.ts';
import { adminApi, E2E_ADMIN_PASSWORD, notice, signIn, visible } from '../admin/helpers.ts';

const NEW_PATH = 'hozyain-e2e';
const NEW_PASSWORD = 'e2e-password-2';

describe('the owner changes the account', () => {
  const { baseURL, openPage } = useBrowser();

  afterAll(async () => {
    // Back to /admin and the e2e password, whichever step the journey reached.
    for (const password of [NEW_PASSWORD, E2E_ADMIN_PASSWORD]) {
      const api = await adminApi(baseURL, password).catch(() => null);
      if (!api) continue;
      await api.put('/admin/path', { path: 'admin' });
      await api.put('/admin/credentials', {
        username: 'admin',
        newPassword: E2E_ADMIN_PASSWORD,
        currentPassword: password,
      });
      await api.logout();
      break;
    }
  });

  it('should move the panel to a new path, where the owner can sign in, and the old one answers 404', async () => {
    const page = await openPage('/admin#account', 'desktop');
    await signIn(page);
    const path = page.getByLabel('Путь к админ панели');
    await visible(path);
    expect(await path.inputValue()).toBe('admin');

    // A path the site itself uses is refused under the field.
    await path.fill('cabins');
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    await visible(page.getByText('Этот адрес занят страницами сайта, выберите другой'));

    await path.fill(NEW_PATH);
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    await page.waitForURL(`**/${NEW_PATH}#account`);
    await visible(notice(page, /Данные аккаунта обновлены!/));

    expect((await fetch(`${baseURL}/admin`)).status).toBe(404);
    const fresh = await openPage(`/${NEW_PATH}`, 'phone');
    await signIn(fresh);
    // The panel opens on «Заявки», at the new path.
    await visible(fresh.getByRole('group', { name: 'Какие заявки показать' }));
  });

  it('should change the password only when a new one is given, and sign in with it', async () => {
    const page = await openPage(`/${NEW_PATH}#account`, 'phone');
    await signIn(page);
    await visible(page.getByLabel('Новый пароль'));
    // Saving with an empty password keeps the old one.
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    await visible(notice(page, 'Данные аккаунта обновлены!'));
    await adminApi(baseURL, E2E_ADMIN_PASSWORD).then((api) => api.logout());

    await page.getByLabel('Новый пароль').fill('short');
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    await visible(page.getByText('Пароль должен быть не короче 8 символов'));
    await page.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    // A new password needs the current one: a session left open is not enough.
    await page.getByLabel('Текущий пароль').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    await visible(notice(page, 'Данные аккаунта обновлены!'));

    const again = await openPage(`/${NEW_PATH}`, 'desktop');
    await signIn(again, NEW_PASSWORD);
    await again.getByRole('button', { name: 'Выйти' }).click();
    await visible(again.getByRole('button', { name: 'Войти' }));
  });
});
