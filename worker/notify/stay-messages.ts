import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { guestMail } from '../../schema/guest-mail.ts';
import {
  ARRIVAL_MESSAGE_FROM,
  GUEST_PAGE_DAYS_AFTER_DEPARTURE,
  type GuestMessageKind,
  type MessageKind,
  type MessageSettings,
} from '../../schema/guest-page.ts';
import { formatMoscowTime } from '../../schema/format.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { enqueueGuestMessages, staysDue } from '../queries/outbox.ts';
import { getSettings } from '../queries/settings.ts';
import { readTelegramBot } from '../queries/telegram-bot.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { telegramGuestText } from '../../schema/telegram.ts';
import { readSmsGateway } from '../queries/sms.ts';
import { queueSmsReminders } from './guest-sms.ts';
import { messageOrigin } from './guest.ts';

/**
 * The schedule's part of the guests' messages, every 15 minutes: the reminder for each
 * confirmed stay whose arrival is at most `daysBefore` days away (and not today or past: a stay
 * booked the day before still gets it), and the review request from `daysAfter` days after
 * departure while the guest's page still answers, and on the check-in day from 08:00 a message with the
 * page's link to the guest's messenger (with the reminders, which it is one of). Each is kept in the outbox once per booking and
 * channel (by e-mail, to the Telegram chat or MAX dialog the guest tied where the owner connected a bot, and
 * the reminder by SMS to a guest with a phone and no messenger where the owner turned SMS on),
 * and the same run's drain sends it. Nothing with the message switched off, or without SITE_URL
 * (the schedule has no request to take the address from).
 */
export async function queueStayMessages(env: Bindings): Promise<{ reminders: number; reviews: number }> {
  const none = { reminders: 0, reviews: 0 };
  const [bot, maxBot, sms] = await Promise.all([readTelegramBot(env), readMaxBot(env), readSmsGateway(env)]);
  if (!env.MAILER && !bot && !maxBot && !sms) return none;
  const { messages } = await getSettings(env);
  if (!messages.reminder.enabled && !messages.review.enabled) return none;
  const origin = messageOrigin(env);
  if (!origin) {
    console.warn(
      'Reminders and review requests to guests wait: SITE_URL is not set, and their links need the site’s address',
    );
    return none;
  }
  const today = todayInMoscow(now());
  const morning = formatMoscowTime(new Date(now()).toISOString()) >= ARRIVAL_MESSAGE_FROM;
  const channels = [
    ...(env.MAILER ? (['email'] as const) : []),
    ...(bot ? (['telegram'] as const) : []),
    ...(maxBot ? (['max'] as const) : []),
  ];
  // By e-mail the owner's template; to a Telegram chat or a MAX dialog a few words and the link (schema/telegram.ts).
  const queue = async (
    kind: GuestMessageKind,
    channel: 'email' | 'telegram' | 'max',
    stays: Awaited<ReturnType<typeof staysDue>>,
  ) =>
    enqueueGuestMessages(
      env,
      stays.map((s) => {
        const stay = { ...s, guestToken: s.guestToken! };
        return {
          bookingId: s.id,
          kind,
          channel,
          recipient: s.recipient,
          ...(channel === 'email' && kind !== 'arrival'
            ? guestMail(kind as MessageKind, messages as MessageSettings, stay, origin)
            : telegramGuestText(kind, stay, origin)),
        };
      }),
    );
  const counts = await Promise.all(
    channels.map(async (channel) => {
      const [reminders, reviews] = await Promise.all([
        messages.reminder.enabled
          ? staysDue(
              env,
              'reminder',
              'checkIn',
              addDays(today, 1),
              addDays(today, messages.reminder.daysBefore),
              channel,
            ).then((s) => queue('reminder', channel, s))
          : 0,
        messages.review.enabled
          ? staysDue(
              env,
              'review',
              'checkOut',
              addDays(today, -GUEST_PAGE_DAYS_AFTER_DEPARTURE),
              addDays(today, -messages.review.daysAfter),
              channel,
            ).then((s) => queue('review', channel, s))
          : 0,
      ]);
      // On the check-in day, from the morning, to the guest's messenger: a few words and the page's
      // link, where the way there and the owner's instructions are (never the instructions themselves).
      const arrivals =
        channel !== 'email' && messages.reminder.enabled && morning
          ? await staysDue(env, 'arrival', 'checkIn', today, today, channel).then((s) => queue('arrival', channel, s))
          : 0;
      return { reminders: reminders + arrivals, reviews };
    }),
  );
  // By SMS the reminder alone, to a guest who left a phone and tied no messenger (worker/notify/guest-sms.ts).
  const bySms =
    sms && messages.reminder.enabled ? await queueSmsReminders(env, origin, messages.reminder.daysBefore) : 0;
  return counts.reduce((a, b) => ({ reminders: a.reminders + b.reminders, reviews: a.reviews + b.reviews }), {
    ...none,
    reminders: bySms,
  });
}
