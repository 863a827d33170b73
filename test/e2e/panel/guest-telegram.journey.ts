import { afterAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from '../admin/helpers.ts';

// «Настройки» → «Telegram для гостей» on a phone, against the Telegram stand-in the e2e stack's
// worker knows as TELEGRAM_API_URL (stand-ins/telegram-api.ts), and the guest's page it changes.

describe("the owner connects the guests' Telegram bot", () => {
  const { baseURL, openPage } = useBrowser();

  afterAll(async () => {
    // The other journeys run without a guests' bot.
    const api = await adminApi(baseURL);
    await api.put('/admin/messengers', { telegram: null });
    await api.logout();
  });

  it("should take the token, show the bot and how its messages come, and put the button on a guest's page", async () => {
    const page = await openPage('/admin#settings', 'phone', { bypassCSP: true });
    await signIn(page);
    const section = page.getByRole('region', { name: 'Telegram для гостей' });
    await visible(section.getByText('Не настроено'));

    const token = `700100:${crypto.randomUUID().replaceAll('-', '')}`;
    await section.getByLabel('Токен бота').fill(token);
    await section.getByRole('button', { name: 'Подключить бота' }).click();
    await visible(notice(page, 'Бот подключён: гости увидят кнопку «Получать сообщения в Telegram»'));
    await visible(section.getByText('Подключено'));
    // The stack's address is plain http: Telegram takes no webhook there, so the server polls.
    await visible(section.getByText('сервер забирает сообщения раз в минуту', { exact: false }));
    await visible(section.getByText(`токен …${token.slice(-4)}`, { exact: false }));
    // The token never comes back to the browser.
    expect(await page.content()).not.toContain(token);
    expect(await axeViolations(page, '#admin-main')).toEqual([]);

    // A guest's page offers the messenger now, server-rendered, before any script.
    const api = await adminApi(baseURL);
    const stay = await api.stayAhead();
    const guest = await openPage(`/b/${stay.guestToken}`, 'phone', { javaScriptEnabled: false });
    await visible(guest.getByRole('button', { name: 'Получать сообщения в Telegram' }));
    const awake = await openPage(`/b/${stay.guestToken}`, 'phone', { bypassCSP: true });
    await visible(awake.getByRole('button', { name: 'Получать сообщения в Telegram' }));
    expect(await axeViolations(awake)).toEqual([]);
    await api.logout();
  });
});
