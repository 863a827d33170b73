import { z } from 'zod';
import { addDays, clockInMoscow, todayInMoscow, type IsoDate } from './dates.ts';
import { knownPlaceholders } from './guest-page.ts';
import { MSG } from './messages.ts';
import { REPLY_MAX_LENGTH } from './threads.ts';

// The owner's ready answers in «Сообщения» and the automatic answer outside their hours
// (GET/PUT /api/admin/reply-templates, docs/api.md «Conversations»). A template holds the same
// placeholders as the guests' e-mails ({имя}, {домик}, {заезд}, {выезд}, {ссылка}), filled for the
// thread's booking when the owner picks it.

export const REPLY_TEMPLATES_MAX = 20;
export const TEMPLATE_NAME_MAX = 40;
/** The automatic answer is short: it only says when the owner will answer. */
export const AUTO_ANSWER_MAX = 1000;

const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, MSG.tooLong)
    .refine(knownPlaceholders, MSG.messagePlaceholderUnknown);

const clock = z
  .string({ error: MSG.autoAnswerTimeInvalid })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, MSG.autoAnswerTimeInvalid);

export const replyTemplateSchema = z.strictObject(
  {
    name: z
      .string({ error: MSG.templateNameRequired })
      .trim()
      .min(1, MSG.templateNameRequired)
      .max(TEMPLATE_NAME_MAX, MSG.tooLong),
    body: text(REPLY_MAX_LENGTH, MSG.templateBodyRequired),
  },
  { error: MSG.badInput },
);
export type ReplyTemplate = z.infer<typeof replyTemplateSchema>;

export const autoAnswerSchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: MSG.badInput }),
      /** Moscow time: from `from` until `to`, across midnight when `to` is earlier. */
      from: clock,
      to: clock,
      body: text(AUTO_ANSWER_MAX, MSG.autoAnswerBodyRequired),
    },
    { error: MSG.badInput },
  )
  .refine((a) => a.from !== a.to, { message: MSG.autoAnswerHoursEmpty, path: ['to'] });
export type AutoAnswer = z.infer<typeof autoAnswerSchema>;

export const replyTemplatesSchema = z.strictObject(
  {
    templates: z
      .array(replyTemplateSchema, { error: MSG.badInput })
      .max(REPLY_TEMPLATES_MAX, MSG.templatesTooMany)
      .refine((ts) => new Set(ts.map((t) => t.name.toLowerCase())).size === ts.length, MSG.templateNamesRepeat),
    autoAnswer: autoAnswerSchema,
  },
  { error: MSG.badInput },
);
export type ReplyTemplates = z.infer<typeof replyTemplatesSchema>;

/** What a new site starts with: two answers owners give every day, and the automatic answer off. */
export const DEFAULT_REPLY_TEMPLATES: ReplyTemplates = {
  templates: [
    {
      name: 'Как добраться',
      body: '{имя}, здравствуйте! Адрес, схема проезда и всё для заезда — на странице вашего бронирования: {ссылка}',
    },
    {
      name: 'Спасибо',
      body: '{имя}, спасибо, что выбрали нас! Ждём вас {заезд}. Если появятся вопросы — пишите сюда.',
    },
  ],
  autoAnswer: {
    enabled: false,
    from: '21:00',
    to: '09:00',
    body: 'Спасибо за сообщение! Сейчас мы не на связи и ответим до 9:00.',
  },
};

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `time` (HH:MM, Moscow) falls in the automatic answer's hours, [from, to): across
 * midnight when `to` is earlier than `from` (21:00–09:00).
 */
export function inAutoAnswerHours(a: Pick<AutoAnswer, 'from' | 'to'>, time: string): boolean {
  const [t, from, to] = [minutes(time), minutes(a.from), minutes(a.to)];
  return from < to ? t >= from && t < to : t >= from || t < to;
}

/**
 * Whether a text would take a guest off Avito: a link, or {ссылка} (our own page). Avito's rules
 * forbid it, so such a template is not offered in an Avito chat.
 */
export const takesGuestOffAvito = (body: string): boolean =>
  body.includes('{ссылка}') || /https?:\/\/|www\.|[\p{L}\d-]+\.(ru|рф|com|net|org|su)(?![\p{L}\d])/iu.test(body);

/**
 * The Moscow date on which the automatic answer's hours that hold the instant `ms` began (the
 * evening before, for a message at 02:00 in 21:00–09:00), or null outside them. One answer is sent
 * per thread and period, however many messages the guest writes in it.
 */
export function autoAnswerPeriod(a: Pick<AutoAnswer, 'from' | 'to'>, ms: number): IsoDate | null {
  const time = clockInMoscow(ms);
  if (!inAutoAnswerHours(a, time)) return null;
  const today = todayInMoscow(ms);
  return a.from > a.to && time < a.to ? addDays(today, -1) : today;
}
