// The schedule's part in cleaning (docs/features.md «Cleaning»): the owner is told when a cabin is
// still not clean an hour before an arrival, and each cleaner who tied a chat gets the day's tasks of
// their cabins in the morning by the owner's bot. Both are kept in the outbox with an event of their
// own (outbox_daily_event_idx), so a run repeated or raced keeps each message once; the same run's
// drain sends them (worker/notify/drain.ts).
import { sql } from 'drizzle-orm';
import {
  CLEANER_DAY_KIND,
  CLEANER_LIST_TIME,
  CLEANING_TEXTS,
  fill,
  minusMinutes,
  NOT_CLEAN_KIND,
  NOT_CLEAN_LEAD_MINUTES,
} from '../../schema/cleaning.ts';
import { addDays, clockInMoscow, type IsoDate, todayInMoscow } from '../../schema/dates.ts';
import { formatDate, formatStayDates } from '../../schema/format.ts';
import { TASK_KIND_LABELS } from '../../schema/task-kinds.ts';
import { outbox, type OutboxRow } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { getSettings } from '../queries/settings.ts';
import { listTasks, writeDepartureCleanings } from '../queries/today.ts';
import { cabinsOfCleaner } from '../queries/users.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { markFailed, markSent } from '../queries/outbox.ts';
import { readTelegramBot } from '../queries/telegram-bot.ts';
import { sendMaxMessage } from './max-api.ts';
import { markTryFailed, messageOf, ownerChannels, triedTooLong } from './owner.ts';
import { sendTelegramMessage } from './telegram-api.ts';

/** How far back a departure's cleaning not yet ticked is looked for. */
const CLEANINGS_LOOKED_BACK_DAYS = 7;

/** The guest's first name as they typed it: the owner's alert needs no more of them. */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? '';

/**
 * An open cleaning of the arrival's cabin (alias `b`), due today or before: not ticked «Убрано», and
 * still due (a cancelled or moved departure's cleaning is nobody's).
 */
const openCleaningOf = (today: IsoDate) => sql`t.cabin_id = b.cabin_id and t.kind = 'cleaning' and t.done = 0
  and t.due <= ${today} and (t.booking_id is null or exists (select 1 from bookings d where d.id = t.booking_id
    and d.status = 'confirmed' and d.cabin_id = t.cabin_id and coalesce(d.departed_on, d.check_out) = t.due))`;

/**
 * From an hour before an arrival's check-in time until it (the early check-in's hour where the guest
 * has one, else the settings' time): each confirmed arrival of today whose cabin still waits for a
 * cleaning is alerted to the owner by every channel that is set, once (event: the day and the
 * booking). Answers how many messages it kept.
 */
export async function queueNotCleanAlerts(env: Bindings, at = now()): Promise<number> {
  const { checkInTime } = await getSettings(env);
  const clock = clockInMoscow(at);
  const today = todayInMoscow(at);
  const db = getDb(env);
  const hourOf = sql`coalesce(b.early_check_in, ${checkInTime})`;
  // The day's check-in hours first (one small read by the arrivals' index): most runs stop here.
  const hours = (
    await db.all<{ hour: string }>(
      sql`select distinct ${hourOf} as hour from bookings b where b.check_in = ${today} and b.status = 'confirmed'`,
    )
  )
    .map((r) => r.hour)
    .filter((hour) => clock >= minusMinutes(hour, NOT_CLEAN_LEAD_MINUTES) && clock < hour);
  if (hours.length === 0) return 0;
  const channels = [...(await ownerChannels(env)).keys()];
  if (channels.length === 0) return 0;
  // Departures' cleanings are written when tasks are first read: a day nobody opened has them too.
  await writeDepartureCleanings(env, addDays(today, -CLEANINGS_LOOKED_BACK_DAYS), today);
  const open = openCleaningOf(today);
  const arrivals = await db.all<{
    id: number;
    name: string;
    checkIn: IsoDate;
    checkOut: IsoDate;
    cabinName: string;
    hour: string;
    tasks: string;
  }>(sql`select b.id as id, b.name as name, b.check_in as checkIn, b.check_out as checkOut, c.name as cabinName,
      ${hourOf} as hour,
      (select json_group_array(json_object('due', t.due, 'note', t.note)) from tasks t where ${open}) as tasks
    from bookings b join cabins c on c.id = b.cabin_id
    where b.status = 'confirmed' and b.check_in = ${today} and ${hourOf} in (${sql.join(
      hours.map((h) => sql`${h}`),
      sql`, `,
    )}) and exists (select 1 from tasks t where ${open})
    order by b.id`);
  if (arrivals.length === 0) return 0;
  const values = arrivals.flatMap((b) => {
    const tasks = (JSON.parse(b.tasks) as { due: IsoDate; note: string }[])
      .map((t) => `${TASK_KIND_LABELS.cleaning} ${formatDate(t.due)}${t.note ? ` (${t.note})` : ''}`)
      .join('; ');
    const text = fill(CLEANING_TEXTS.notClean, {
      cabin: b.cabinName,
      time: b.hour,
      guest: firstName(b.name),
      dates: formatStayDates(b.checkIn, b.checkOut),
      tasks,
    });
    return channels.map((channel) => ({
      channel,
      subject: CLEANING_TEXTS.notCleanSubject,
      text,
      kind: NOT_CLEAN_KIND,
      event: `${today}:${b.id}`,
      nextAttemptAt: at,
      createdAt: at,
    }));
  });
  const kept = await getDb(env).insert(outbox).values(values).onConflictDoNothing().returning({ id: outbox.id });
  return kept.length;
}

/**
 * From CLEANER_LIST_TIME until the check-in time: each cleaner with a tied chat who has not had the
 * day's list yet gets the open tasks of their cabins, each with its deadline (the next arrival's
 * check-in that day, or the day's end) and note, and nothing of a guest. A day with no tasks sends
 * nothing. Answers how many messages it kept.
 */
export async function queueCleanerLists(env: Bindings, at = now()): Promise<number> {
  const clock = clockInMoscow(at);
  if (clock < CLEANER_LIST_TIME) return 0;
  const { checkInTime } = await getSettings(env);
  if (clock >= checkInTime) return 0;
  const today = todayInMoscow(at);
  const db = getDb(env);
  // The cleaners still waiting for today's list, by the chats they tied.
  const chats = await db.all<{ userId: number; channel: string; chatId: string }>(sql`select cc.user_id as userId,
      cc.channel as channel, cc.chat_id as chatId from cleaner_chats cc join users u on u.id = cc.user_id
    where u.role = 'cleaner' and not exists (select 1 from outbox o where o.booking_id is null
      and o.kind = ${CLEANER_DAY_KIND} and o.channel = cc.channel and o.event = ${today} || ':' || cc.user_id)
    order by cc.user_id, cc.channel`);
  if (chats.length === 0) return 0;
  // Each cabin's arrival today by its check-in hour: an early check-in's makes the deadline earlier.
  const arrivals = new Map(
    (
      await db.all<{ cabinId: number; hour: string }>(
        sql`select cabin_id as cabinId, min(coalesce(early_check_in, ${checkInTime})) as hour from bookings
          where status = 'confirmed' and check_in = ${today} group by cabin_id`,
      )
    ).map((r) => [r.cabinId, r.hour]),
  );
  const texts = new Map<number, string | null>();
  for (const { userId } of chats) {
    if (texts.has(userId)) continue;
    const tasks = (await listTasks(env, today, today, await cabinsOfCleaner(env, userId))).filter((t) => !t.done);
    texts.set(
      userId,
      tasks.length === 0
        ? null
        : [
            fill(CLEANING_TEXTS.listHead, { date: formatDate(today) }),
            ...tasks.map((t) => {
              const hour = arrivals.get(t.cabinId);
              const until = hour ? fill(CLEANING_TEXTS.until, { time: hour }) : CLEANING_TEXTS.untilDayEnd;
              return `• ${t.cabinName}: ${TASK_KIND_LABELS[t.kind]}, ${until}${t.note ? `. ${t.note}` : ''}`;
            }),
          ].join('\n'),
    );
  }
  const values = chats.flatMap(({ userId, channel, chatId }) => {
    const text = texts.get(userId);
    if (!text) return [];
    return [
      {
        channel,
        subject: CLEANING_TEXTS.listSubject,
        text,
        kind: CLEANER_DAY_KIND,
        recipient: chatId,
        event: `${today}:${userId}`,
        nextAttemptAt: at,
        createdAt: at,
      },
    ];
  });
  if (values.length === 0) return 0;
  const kept = await db.insert(outbox).values(values).onConflictDoNothing().returning({ id: outbox.id });
  return kept.length;
}

/**
 * Sends a cleaner's list to the chat it names by the owner's bot of its channel (the guests'
 * Telegram bot, the MAX bot); a bot disconnected since gives the message up.
 */
export async function sendCleanerRow(
  env: Bindings,
  row: Pick<OutboxRow, 'id' | 'channel' | 'recipient' | 'text' | 'attempts' | 'createdAt'>,
): Promise<'sent' | 'failed'> {
  const bot =
    row.channel === 'telegram' ? await readTelegramBot(env) : row.channel === 'max' ? await readMaxBot(env) : null;
  if (!bot || !row.recipient) {
    console.error(`A cleaner’s list given up: the ${row.channel} bot is no longer connected`);
    await markFailed(env, row.id, `${row.channel} is no longer set`, { giveUp: true });
    return 'failed';
  }
  try {
    if (row.channel === 'telegram') await sendTelegramMessage(env, bot.token, row.recipient, row.text);
    else await sendMaxMessage(env, bot.token, Number(row.recipient), row.text);
    await markSent(env, row.id);
    return 'sent';
  } catch (err) {
    const tooOld = triedTooLong(row);
    console.error(`A cleaner’s list by ${row.channel} failed (try ${row.attempts + 1}):`, messageOf(err));
    await markTryFailed(env, row, err, tooOld);
    return 'failed';
  }
}
