import { afterAll, describe, expect, inject, it } from 'vitest';
import { scheduledUrl } from '../../../scripts/lib/stack.ts';
import { readMessages } from '../../../stand-ins/telegram-api.ts';
import { telegramLinkAnswer } from '../../../schema/telegram.ts';
import { apiAt } from '../../typed-api.ts';
import { axeViolations } from '../axe.ts';
import { useBrowser } from '../browser.ts';
import { adminApi, notice, signIn, visible } from '../admin/helpers.ts';

// «Сообщения» on a phone: a guest writes to the guests' bot through the Telegram stand-in the e2e
// stack's worker knows as TELEGRAM_API_URL (stand-ins/telegram-api.ts); the stack's address is
// plain http, so the bot is read by the schedule, whose tick this journey asks for itself.

describe('the owner answers a guest in «Сообщения»', () => {
  const { baseURL, openPage } = useBrowser();
  const telegramApi = inject('telegramApiUrl');

  afterAll(async () => {
    // The other journeys run without a guests' bot.
    const api = await adminApi(baseURL);
    await api.put('/admin/messengers', { telegram: null });
    await api.logout();
  });

  const queueUpdate = (token: string, update: unknown) =>
    fetch(`${telegramApi}/_stand-in/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, update, deliver: false }),
    }).then((r) => r.body?.cancel());
  /** The schedule's tick, as wrangler runs it: the bot's updates are read there. */
  const tick = () => fetch(scheduledUrl(baseURL)).then((r) => r.body?.cancel());
  const saidTo = async (chat: number) =>
    (await readMessages(telegramApi)).filter((m) => String(m.body.chat_id) === String(chat)).map((m) => m.body.text);

  it("should show the guest's message, bold with a count, keep an answer whose send failed, and send it to the chat", async () => {
    const api = await adminApi(baseURL);
    const token = `700200:${crypto.randomUUID().replaceAll('-', '')}`;
    expect((await api.put('/admin/messengers', { telegram: { token } })).status).toBe(200);
    const stay = await api.stayAhead();
    await api.logout();

    // The guest taps «Получать сообщения в Telegram», opens the bot, then writes to it.
    const linked = await apiAt(baseURL, { headers: { 'content-type': 'application/json', origin: baseURL } }).guest[
      ':token'
    ].link.telegram.$post({ param: { token: stay.guestToken } }, { init: { body: '{}' } });
    expect(linked.status).toBe(200);
    // The route's type is lost to its HTML answer for a form: its answer schema reads the JSON one.
    const code = new URL(telegramLinkAnswer.parse(await linked.json()).url).searchParams.get('start');
    const chat = 9_100_000_000 + Math.floor(Math.random() * 1_000_000);
    const update = (id: number, text: string) => ({
      update_id: id,
      message: { message_id: id, date: 1_790_000_000, chat: { id: chat, type: 'private' }, text },
    });
    const first = 700_000 + Math.floor(Math.random() * 100_000);
    await queueUpdate(token, update(first, `/start ${code}`));
    await queueUpdate(token, update(first + 1, 'Здравствуйте! Можно заехать пораньше, в 11:00?'));
    await tick();

    const page = await openPage('/admin#messages', 'phone', { bypassCSP: true });
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Разделы панели' });
    await visible(nav.getByRole('link', { name: /Сообщения\s*1 непрочитанных/ }));
    const item = page.locator('.threads__item--unread', { hasText: stay.name });
    await visible(item);
    await visible(item.getByText('1 непрочитанных'));
    await visible(item.getByText('Ждёт ответа с', { exact: false }));
    expect(await axeViolations(page, '#admin-main')).toEqual([]);

    await item.click();
    await visible(page.getByRole('heading', { name: stay.name }));
    await visible(page.getByText('Здравствуйте! Можно заехать пораньше, в 11:00?'));
    // Opened means read: the tab's count goes.
    await nav.getByRole('link', { name: /непрочитанных/ }).waitFor({ state: 'detached', timeout: 10_000 });

    // The guest writes again while the thread is open: it shows within 5 s, with no reload.
    await queueUpdate(token, update(first + 2, 'И ещё: можно с собакой?'));
    await tick();
    await visible(page.getByText('И ещё: можно с собакой?'), 5_000);

    // An empty answer is refused in the page, with the reason by the field.
    await page.getByRole('button', { name: 'Отправить' }).click();
    await visible(page.getByText('Напишите текст ответа'));
    const answer = 'Добрый день! Да, домик будет готов к 11:00.';
    await page.getByLabel('Ответ гостю').fill(answer);
    // The connection drops as the owner sends: the text stays, in the field and after a reload.
    const replies = '**/api/admin/threads/*/messages';
    await page.route(replies, (route) => route.abort());
    await page.getByRole('button', { name: 'Отправить' }).click();
    await visible(page.getByText('Ответ не отправлен, текст сохранён', { exact: false }));
    expect(await page.getByLabel('Ответ гостю').inputValue()).toBe(answer);
    await page.unroute(replies);
    await page.reload();
    await visible(page.getByRole('heading', { name: stay.name }));
    expect(await page.getByLabel('Ответ гостю').inputValue()).toBe(answer);
    await page.getByRole('button', { name: 'Отправить' }).click();
    await visible(notice(page, 'Ответ поставлен в очередь отправки'));
    expect(await page.getByLabel('Ответ гостю').inputValue()).toBe('');
    const sent = page.locator('.chat__msg--out', { hasText: answer });
    await visible(sent.getByText('отправлено'), 15_000);
    expect(await axeViolations(page, '#admin-main')).toEqual([]);

    expect(await saidTo(chat)).toContain(answer);

    // A ready answer in one tap, filled for this guest, then sent as it is.
    await page.getByRole('group', { name: 'Вставить шаблон' }).getByRole('button', { name: 'Спасибо' }).click();
    const thanks = await page.getByLabel('Ответ гостю').inputValue();
    expect(thanks).toMatch(new RegExp(`^${stay.name.split(' ')[0]}, спасибо, что выбрали нас! Ждём вас `));
    await page.getByRole('button', { name: 'Отправить' }).click();
    await visible(
      page.locator('.chat__msg--out', { hasText: 'спасибо, что выбрали нас' }).getByText('отправлено'),
      15_000,
    );
    expect(await saidTo(chat)).toContain(thanks);

    // The templates themselves: a typo in a placeholder is refused with the reason, nothing typed lost.
    await page.getByRole('link', { name: '← Все сообщения' }).click();
    await page.getByRole('link', { name: 'Шаблоны и автоответ' }).click();
    await visible(page.getByRole('heading', { name: 'Шаблоны и автоответ' }));
    await page.getByRole('button', { name: 'Добавить шаблон' }).click();
    await page.locator('#template-name-2').fill('Баня');
    await page.locator('#template-body-2').fill('{гость}, баня топится с 17:00.');
    await page.getByRole('button', { name: 'Сохранить шаблоны' }).click();
    await visible(page.getByText('В тексте есть неизвестная подстановка', { exact: false }));
    expect(await page.locator('#template-name-2').inputValue()).toBe('Баня');
    await page.locator('#template-body-2').fill('{имя}, баня топится с 17:00.');
    await page.getByRole('button', { name: 'Сохранить шаблоны' }).click();
    await visible(notice(page, 'Шаблоны сохранены'));
    expect(await axeViolations(page, '#admin-main')).toEqual([]);
    const api2 = await adminApi(baseURL);
    const saved = (await api2.get('/admin/reply-templates')).json as { templates: { name: string }[] };
    expect(saved.templates.map((t) => t.name)).toEqual(['Как добраться', 'Спасибо', 'Баня']);
    // The other journeys see the defaults again.
    await api2.put('/admin/reply-templates', {
      ...saved,
      templates: saved.templates.filter((t) => t.name !== 'Баня'),
    });
    await api2.logout();
  });
});
