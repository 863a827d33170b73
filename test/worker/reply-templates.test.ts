import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { DEFAULT_REPLY_TEMPLATES, type ReplyTemplates } from '../../schema/reply-templates.ts';
import { TELEGRAM_REPLIES } from '../../schema/telegram.ts';
import type { ThreadAnswer, ThreadView } from '../../schema/threads.ts';
import type { Bindings } from '../../worker/env.ts';
import {
  callWith,
  expectError,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  validBooking,
} from './helpers.ts';
import { deliverer, guestWithChatVia, madeUp, message, saidTo } from './telegram-stand-in.ts';

/**
 * The owner's ready answers and the automatic answer outside their hours (docs/api.md
 * «Conversations»), on both runtimes: templates are filled for the thread's booking, an Avito chat
 * is offered none that links off Avito, and a guest who writes at night gets one automatic answer
 * per night, which leaves the thread waiting for the owner. Telegram is the global setup's stand-in.
 */
const telegramApi = inject('telegramApiUrl');
const SITE = 'https://kaspiy.example';
const call = callWith({ TELEGRAM_API_URL: telegramApi, SITE_URL: SITE } satisfies Partial<Bindings>);
const json = jsonOf;

/** 23:30 in Moscow (UTC+3) on a summer night, and the next days' times from it. */
const NIGHT = new Date('2031-07-10T20:30:00Z').getTime();
const HOUR_MS = 3_600_000;
const useClock = (ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
};

const made = madeUp({ updates: 300_000, chats: 6_000_000_000 });
const { nextUpdateId } = made;
const deliver = deliverer(call);
const guestWithChat = guestWithChatVia(call, made);

const readTemplates = async (cookie: string) =>
  json<ReplyTemplates>(await call('GET', '/api/admin/reply-templates', { cookie }), 200);
const saveTemplates = (cookie: string, body: unknown) => call('PUT', '/api/admin/reply-templates', { cookie, body });
const threadsOf = async (cookie: string) =>
  json<ThreadView[]>(await call('GET', '/api/admin/threads', { cookie }), 200);
const threadOf = async (cookie: string, id: number) =>
  json<ThreadAnswer>(await call('GET', `/api/admin/threads/${id}`, { cookie }), 200);

const NIGHT_ANSWER = 'Спасибо, {имя}! Сейчас ночь: ответим до 9:00.';
const nightHours = (enabled = true): ReplyTemplates => ({
  templates: DEFAULT_REPLY_TEMPLATES.templates,
  autoAnswer: { enabled, from: '21:00', to: '09:00', body: NIGHT_ANSWER },
});

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('the reply templates', () => {
  it('should start with the defaults, keep what the owner saves, and let a manager edit them', async () => {
    const cookie = await login();
    expect(await readTemplates(cookie)).toEqual(DEFAULT_REPLY_TEMPLATES);
    const mine: ReplyTemplates = {
      templates: [
        { name: 'Баня', body: '{имя}, баня топится с 17:00, бронируйте за день.' },
        { name: 'Парковка', body: 'Парковка у домика бесплатная.' },
      ],
      autoAnswer: { enabled: true, from: '22:30', to: '08:00', body: 'Ответим утром.' },
    };
    expect(await json(await saveTemplates(cookie, mine), 200)).toEqual(mine);
    expect(await readTemplates(cookie)).toEqual(mine);

    await seedUser('manager', 'manager-password-1');
    const manager = await login({ username: 'manager', password: 'manager-password-1' });
    const theirs = { ...mine, templates: mine.templates.slice(1) };
    await json(await saveTemplates(manager, theirs), 200);
    expect(await readTemplates(cookie)).toEqual(theirs);
  });

  it.each([
    ['an unknown placeholder', { templates: [{ name: 'А', body: 'Привет, {гость}' }] }, MSG.messagePlaceholderUnknown],
    [
      'two templates of one name',
      {
        templates: [
          { name: 'Баня', body: 'Раз' },
          { name: 'баня', body: 'Два' },
        ],
      },
      MSG.templateNamesRepeat,
    ],
    ['a template with no name', { templates: [{ name: '  ', body: 'Текст' }] }, MSG.templateNameRequired],
    ['a template with no text', { templates: [{ name: 'Пусто', body: '' }] }, MSG.templateBodyRequired],
    [
      'more than 20 templates',
      { templates: Array.from({ length: 21 }, (_, i) => ({ name: `Шаблон ${i}`, body: 'Текст' })) },
      MSG.templatesTooMany,
    ],
    [
      'hours that begin where they end',
      { autoAnswer: { ...nightHours().autoAnswer, to: '21:00' } },
      MSG.autoAnswerHoursEmpty,
    ],
    [
      'a time that is no time',
      { autoAnswer: { ...nightHours().autoAnswer, from: '25:00' } },
      MSG.autoAnswerTimeInvalid,
    ],
  ])('should refuse %s with the reason and keep what was saved', async (_, change, reason) => {
    const cookie = await login();
    await json(await saveTemplates(cookie, nightHours()), 200);
    await expectError(await saveTemplates(cookie, { ...nightHours(), ...change }), 400, reason);
    expect(await readTemplates(cookie)).toEqual(nightHours());
  });
});

describe('a thread offers the templates', () => {
  it('should fill them for the thread’s booking: the guest’s first name, the stay and their page', async () => {
    const cookie = await login();
    const { token, booking, guestToken, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Как к вам проехать?'));
    const [listed] = await threadsOf(cookie);
    expect(listed?.bookingId).toBe(booking);
    const { templates } = await threadOf(cookie, listed!.id);
    expect(templates.map((t) => t.name)).toEqual(['Как добраться', 'Спасибо']);
    expect(templates[0]!.text).toBe(
      `Мадина, здравствуйте! Адрес, схема проезда и всё для заезда — на странице вашего бронирования: ${SITE}/b/${guestToken}`,
    );
    expect(templates[1]!.text).toMatch(/^Мадина, спасибо, что выбрали нас! Ждём вас \d{1,2} [а-я]+ \d{4}\./);
  });

  it('should offer an Avito chat only the templates that keep the guest on Avito', async () => {
    const cookie = await login();
    await json(
      await saveTemplates(cookie, {
        ...nightHours(),
        templates: [
          { name: 'Ссылка', body: 'Всё на странице: {ссылка}' },
          { name: 'Сайт', body: 'Подробнее на kaspiy.ru' },
          { name: 'Сайт в зоне рф', body: 'Подробнее на каспий.рф, там фото.' },
          { name: 'Баня', body: '{имя}, баня свободна.' },
        ],
      }),
      200,
    );
    const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
    const { id } = await json<{ id: number }>(
      await call('POST', '/api/bookings', { body: validBooking(cabin.id, { name: 'Олег Петров' }) }),
      201,
    );
    const thread = (await env.DB.prepare(
      "INSERT INTO threads (channel, booking_id, created_at) VALUES ('avito', ?, ?) RETURNING id",
    )
      .bind(id, Date.now())
      .first<{ id: number }>())!.id;
    expect((await threadOf(cookie, thread)).templates).toEqual([{ name: 'Баня', text: 'Олег, баня свободна.' }]);
  });
});

describe('the automatic answer', () => {
  it('should answer a guest who writes at night once, as an automatic message that leaves the thread waiting', async () => {
    useClock(NIGHT);
    const cookie = await login();
    await json(await saveTemplates(cookie, nightHours()), 200);
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Добрый вечер! Можно с собакой?'));
    vi.setSystemTime(NIGHT + 2 * HOUR_MS); // 01:30: the same night
    await deliver(token, message(nextUpdateId(), chat, 'И ещё: есть ли мангал?'));
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked, 'Спасибо, Мадина! Сейчас ночь: ответим до 9:00.']);

    // The session of hours ago may have ended: the owner signs in again.
    const owner = await login();
    const [listed] = await threadsOf(owner);
    const { messages } = await threadOf(owner, listed!.id);
    expect(messages.map((m) => [m.direction, m.auto ?? false, m.status])).toEqual([
      ['in', false, 'received'],
      ['out', true, 'sent'],
      ['in', false, 'received'],
    ]);
    // The guest still waits for the owner, since their first message.
    expect(listed!.waitingSince).toBe(new Date(NIGHT).toISOString());

    // In the owner's hours, nothing; the next night, one again.
    vi.setSystemTime(NIGHT + 12 * HOUR_MS); // 11:30
    await deliver(token, message(nextUpdateId(), chat, 'Доброе утро!'));
    expect((await saidTo(chat)).filter((t) => t.startsWith('Спасибо, Мадина'))).toHaveLength(1);
    vi.setSystemTime(NIGHT + 24 * HOUR_MS); // 23:30 the next day
    await deliver(token, message(nextUpdateId(), chat, 'Спокойной ночи!'));
    expect((await saidTo(chat)).filter((t) => t.startsWith('Спасибо, Мадина'))).toHaveLength(2);
  });

  it('should send one automatic answer to many messages at once', async () => {
    useClock(NIGHT);
    const cookie = await login();
    await json(await saveTemplates(cookie, nightHours()), 200);
    const { token, chat } = await guestWithChat(cookie);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => deliver(token, message(nextUpdateId(), chat, `Вопрос ${i + 1}`))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect((await saidTo(chat)).filter((t) => t.startsWith('Спасибо, Мадина'))).toHaveLength(1);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'auto-answer'").first<{
      n: number;
    }>())!;
    expect(n).toBe(1);
  });

  it('should send nothing while it is off, nor in the owner’s hours', async () => {
    useClock(NIGHT);
    const cookie = await login();
    await json(await saveTemplates(cookie, nightHours(false)), 200);
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Здравствуйте'));
    await json(
      await saveTemplates(cookie, {
        ...nightHours(),
        autoAnswer: { ...nightHours().autoAnswer, from: '00:00', to: '08:00' },
      }),
      200,
    );
    await deliver(token, message(nextUpdateId(), chat, 'Вы тут?'));
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
  });
});
