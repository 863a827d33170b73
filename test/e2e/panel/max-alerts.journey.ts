import { afterAll, describe, expect, inject, it } from 'vitest';
import { MSG } from '../../../schema/messages.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from '../admin/helpers.ts';

// «Настройки» → «Уведомления в MAX» on a phone, against the MAX stand-in the e2e stack's worker
// knows as MAX_API_URL (stand-ins/max-api.ts).

type Recorded = { method: string; path: string; authorization: string | null; body: { text?: string } | null };

describe('the owner connects alerts in MAX', () => {
  const { baseURL, openPage } = useBrowser();
  const maxApi = inject('maxApiUrl');
  const sentWith = async (token: string) =>
    ((await (await fetch(`${maxApi}/_stand-in/requests`)).json()) as Recorded[]).filter(
      (r) => r.authorization === token,
    );

  afterAll(async () => {
    // The other journeys run without a MAX bot.
    const api = await adminApi(baseURL);
    await api.del('/admin/max');
    await api.logout();
  });

  it("should take the token, show the bot's link, connect after «Начать» and send a test message", async () => {
    const page = await openPage('/admin#settings', 'phone');
    await signIn(page);
    const section = page.getByRole('region', { name: 'Уведомления в MAX' });
    await visible(section.getByText('Не настроено'));
    const field = section.getByLabel('Токен бота');

    // A token MAX refuses is said so under the field.
    await field.fill(`bad-${crypto.randomUUID()}`);
    await section.getByRole('button', { name: 'Сохранить токен' }).click();
    await visible(section.getByText(MSG.maxTokenRejected));

    const token = `tok-${crypto.randomUUID()}`;
    await field.fill(token);
    await section.getByRole('button', { name: 'Сохранить токен' }).click();
    await visible(notice(page, 'Токен сохранён. Откройте бота по ссылке и нажмите «Начать»'));
    await visible(section.getByText(`токен …${token.slice(-4)}`, { exact: false }));
    const link = section.getByRole('link', { name: /^https:\/\/max\.ru\/kaspiy_alerts_bot\?start=/ });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^https:\/\/max\.ru\/kaspiy_alerts_bot\?start=[0-9a-f]{48}$/);
    // The token never comes back to the browser.
    expect(await field.inputValue()).toBe('');
    expect(await page.content()).not.toContain(token);

    // Checking before «Начать» says what to do.
    await section.getByRole('button', { name: 'Проверить подключение' }).click();
    await visible(notice(page, MSG.maxNotStarted));

    // The owner opens the link in MAX and presses «Начать».
    await fetch(`${maxApi}/_stand-in/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token,
        payload: new URL(href).searchParams.get('start'),
        userId: 424_242,
        chatId: 434_343,
      }),
    });
    await section.getByRole('button', { name: 'Проверить подключение' }).click();
    await visible(notice(page, 'Подключено: уведомления будут приходить вам в MAX'));
    await visible(section.locator('.badge', { hasText: 'Подключено' }));

    await section.getByRole('button', { name: 'Отправить тестовое сообщение' }).click();
    await visible(notice(page, 'Тестовое сообщение отправлено: проверьте MAX'));
    const sent = (await sentWith(token)).filter((r) => r.method === 'POST' && r.path.startsWith('/messages'));
    expect(sent.map((r) => r.path)).toEqual(['/messages?user_id=424242']);
    expect(sent[0]!.body?.text).toContain('Проверка связи');
  });
});
