// The owner's day («Сегодня», docs/api.md «The owner's day»): who arrives, leaves and stays on
// a day, the marks «Заехал» and «Выехал», and the tasks at the cabins with each departure's cleaning.
import { and, asc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/sqlite-core';
import type { IsoDate } from '../../schema/dates.ts';
import type { StayMark, TaskInput, TaskUpdate } from '../../schema/tasks.ts';
import { bookings, cabins, tasks, type Booking, type Task } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { getBooking, nowIso, stayEnd } from './bookings.ts';
import { paidOf } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

/** A confirmed stay touching the day or the next, with its cabin and what was paid (kopecks, refunds off). */
export type DayStay = {
  id: number;
  cabinId: number;
  cabinName: string;
  name: string;
  phone: string;
  guests: number;
  checkIn: IsoDate;
  checkOut: IsoDate;
  departedOn: IsoDate | null;
  arrivedAt: string | null;
  departedAt: string | null;
  /** The hours of an early check-in or a late check-out the guest paid for, or null. */
  earlyCheckIn: string | null;
  lateCheckOut: string | null;
  /** Roubles, as the booking was priced. */
  total: number;
  /** Kopecks. */
  paid: number;
};

/**
 * The confirmed stays (paid ones are confirmed too) that have a night, an arrival or a departure
 * in [from, to]: requests, holds still being paid for and cancelled bookings are not anyone's day.
 * A stay ends on its stayEnd (the early departure's day, when there was one). One query.
 */
export async function dayStays(env: DbEnv, from: IsoDate, to: IsoDate): Promise<DayStay[]> {
  return getDb(env).all<DayStay>(sql`select b.id as id, b.cabin_id as cabinId, c.name as cabinName, b.name as name,
      b.phone as phone, b.guests as guests, b.check_in as checkIn, b.check_out as checkOut, b.departed_on as departedOn,
      b.arrived_at as arrivedAt, b.departed_at as departedAt, b.early_check_in as earlyCheckIn,
      b.late_check_out as lateCheckOut, b.total as total, ${paidOf(sql`b`)} as paid
    from bookings b join cabins c on c.id = b.cabin_id
    where b.status = 'confirmed' and b.check_in <= ${to} and coalesce(b.departed_on, b.check_out) >= ${from}
    order by b.check_in, c.name, b.id`);
}

/** A task as the panel reads it: `photo` is where its photo is seen (GET /api/admin/tasks/{id}/photo), not the key. */
export type TaskRow = Omit<Task, 'photo'> & { cabinName: string; photo: string | null };

/**
 * Where a task's photo is seen: the admin route, never /media/. The key rides along so a replaced
 * photo has a new address (a cached old one is never shown for the new).
 */
export const taskPhotoUrl = (id: number, key: string | null) =>
  key === null ? null : `/api/admin/tasks/${id}/photo?v=${encodeURIComponent(key)}`;

const rowOf = (r: { task: Task; cabinName: string }): TaskRow => ({
  ...r.task,
  cabinName: r.cabinName,
  photo: taskPhotoUrl(r.task.id, r.task.photo),
});

/**
 * Writes the cleaning of every confirmed departure in [from, to] not written yet (one row per
 * booking and departure day: the unique index makes a repeat, or two reads at once, write it once).
 * Why derived here rather than written on confirming: see schema/tables.ts tasks.
 */
export async function writeDepartureCleanings(env: DbEnv, from: IsoDate, to: IsoDate, cabinId?: number) {
  const at = nowIso();
  const end = sql`coalesce(b.departed_on, b.check_out)`;
  await getDb(
    env,
  ).run(sql`insert or ignore into tasks (cabin_id, due, kind, note, done, booking_id, created_at, updated_at)
    select b.cabin_id, ${end}, 'cleaning', '', 0, b.id, ${at}, ${at} from bookings b
    where b.status = 'confirmed' and ${end} >= ${from} and ${end} <= ${to}
      ${cabinId === undefined ? sql`` : sql`and b.cabin_id = ${cabinId}`}`);
}

/** A task is shown while its booking (if it has one) is confirmed and still leaves that cabin on its day (a guest may move to another). */
export const stillDue = sql`(${tasks.bookingId} is null or exists (select 1 from bookings b where b.id = ${tasks.bookingId}
  and b.status = 'confirmed' and b.cabin_id = ${tasks.cabinId} and coalesce(b.departed_on, b.check_out) = ${tasks.due}))`;

/**
 * The tasks due in [from, to] (both days), of one cabin, of a cleaner's cabins or of all, by day
 * and cabin, departures' cleanings included.
 */
export async function listTasks(
  env: DbEnv,
  from: IsoDate,
  to: IsoDate,
  cabinId?: number | readonly number[],
): Promise<TaskRow[]> {
  if (Array.isArray(cabinId) && cabinId.length === 0) return [];
  await writeDepartureCleanings(env, from, to, typeof cabinId === 'number' ? cabinId : undefined);
  const rows = await getDb(env)
    .select({ task: tasks, cabinName: cabins.name })
    .from(tasks)
    .innerJoin(cabins, eq(tasks.cabinId, cabins.id))
    .where(
      and(
        gte(tasks.due, from),
        lte(tasks.due, to),
        cabinId === undefined
          ? undefined
          : typeof cabinId === 'number'
            ? eq(tasks.cabinId, cabinId)
            : inArray(tasks.cabinId, [...cabinId]),
        stillDue,
      ),
    )
    .orderBy(asc(tasks.due), asc(cabins.name), asc(tasks.id));
  return rows.map(rowOf);
}

export async function getTask(env: DbEnv, id: number): Promise<TaskRow | undefined> {
  const row = await getDb(env)
    .select({ task: tasks, cabinName: cabins.name })
    .from(tasks)
    .innerJoin(cabins, eq(tasks.cabinId, cabins.id))
    .where(eq(tasks.id, id))
    .get();
  return row && rowOf(row);
}

/** A task the owner adds (no booking). Undefined when the cabin does not exist. */
export async function addTask(env: DbEnv, input: TaskInput): Promise<TaskRow | undefined> {
  const cabin = await getDb(env).select({ name: cabins.name }).from(cabins).where(eq(cabins.id, input.cabinId)).get();
  if (!cabin) return undefined;
  const at = nowIso();
  const [row] = await getDb(env)
    .insert(tasks)
    .values({ ...input, done: false, createdAt: at, updatedAt: at })
    .returning();
  return rowOf({ task: row!, cabinName: cabin.name });
}

/** Done or not, and the note: one write; ticking a done task again keeps when it was done. */
export async function updateTask(env: DbEnv, id: number, change: TaskUpdate): Promise<TaskRow | undefined> {
  const at = nowIso();
  const [row] = await getDb(env)
    .update(tasks)
    .set({
      done: change.done,
      doneAt: change.done ? sql`coalesce(${tasks.doneAt}, ${at})` : null,
      ...(change.note === undefined ? {} : { note: change.note }),
      updatedAt: at,
    })
    .where(eq(tasks.id, id))
    .returning({ id: tasks.id });
  return row && getTask(env, row.id);
}

/** The media key of a task's photo: null when it has none, undefined when there is no such task. */
export async function taskPhotoKey(env: DbEnv, id: number): Promise<string | null | undefined> {
  const row = await getDb(env).select({ photo: tasks.photo }).from(tasks).where(eq(tasks.id, id)).get();
  return row?.photo;
}

/**
 * The task's photo becomes `key` in one conditional write on the photo read (`WHERE photo IS
 * before`): of two at once, one writes and the other tries again on what it then reads, so every
 * key replaced is answered once, for its object to be removed. Undefined when the task is gone.
 */
export async function setTaskPhoto(
  env: DbEnv,
  id: number,
  key: string,
): Promise<{ task: TaskRow; replaced: string | null } | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await taskPhotoKey(env, id);
    if (before === undefined) return undefined;
    const [row] = await getDb(env)
      .update(tasks)
      .set({ photo: key, updatedAt: nowIso() })
      .where(and(eq(tasks.id, id), before === null ? isNull(tasks.photo) : eq(tasks.photo, before)))
      .returning({ id: tasks.id });
    if (row) {
      const task = await getTask(env, id);
      return task && { task, replaced: before };
    }
  }
  throw new Error(`The photo of task ${id} kept changing under five writes`);
}

/**
 * The days of [from, to) on which a cabin waits for a cleaning, as one query not yet run (for
 * «Шахматка»'s one batch, so it writes nothing): each confirmed departure whose cleaning is not
 * ticked done, and each cleaning the owner added and has not ticked.
 */
export function openCleaningsQuery(env: DbEnv, from: IsoDate, to: IsoDate) {
  const db = getDb(env);
  const departures = db
    .select({ cabinId: bookings.cabinId, date: stayEnd })
    .from(bookings)
    .where(
      and(
        eq(bookings.status, 'confirmed'),
        gte(stayEnd, from),
        lt(stayEnd, to),
        sql`not exists (select 1 from tasks t where t.booking_id = ${bookings.id} and t.due = ${stayEnd} and t.done = 1)`,
      ),
    );
  const added = db
    .select({ cabinId: tasks.cabinId, date: sql<string>`${tasks.due}` })
    .from(tasks)
    .where(
      and(
        eq(tasks.kind, 'cleaning'),
        eq(tasks.done, false),
        isNull(tasks.bookingId),
        gte(tasks.due, from),
        lt(tasks.due, to),
      ),
    );
  return union(departures, added);
}

export type StayResult =
  | { ok: true; changed: boolean; booking: Booking }
  | { ok: false; reason: 'missing' | 'notConfirmed' | 'beforeCheckIn' | 'afterCheckOut' | 'inFuture' };

/**
 * «Заехал» and «Выехал» as one conditional write each: on a confirmed booking whose check-in has
 * come and that is not marked yet (`UPDATE … WHERE id = ? AND status = 'confirmed' AND … IS NULL`).
 * Of many marks at once exactly one writes; the others, and a mark repeated later, change nothing
 * and answer the booking as it is (`changed: false`). «Выехал» marks the arrival too, if it was
 * not. The departure's day is `departedOn`, else today (the check-out day when marked later);
 * before the check-out it is an early departure, and the nights from it on are free (stayEnd).
 */
export async function markStay(env: DbEnv, id: number, mark: StayMark, today: IsoDate): Promise<StayResult> {
  const before = await getBooking(env, id);
  if (!before) return { ok: false, reason: 'missing' };
  if (before.status !== 'confirmed') return { ok: false, reason: 'notConfirmed' };
  if (today < before.checkIn) return { ok: false, reason: 'beforeCheckIn' };
  const departedOn = mark.departedOn ?? (today < before.checkOut ? today : before.checkOut);
  if (mark.departed) {
    if (departedOn < before.checkIn) return { ok: false, reason: 'beforeCheckIn' };
    if (departedOn > before.checkOut) return { ok: false, reason: 'afterCheckOut' };
    if (departedOn > today) return { ok: false, reason: 'inFuture' };
  }
  const at = nowIso();
  const which = mark.departed ? bookings.departedAt : bookings.arrivedAt;
  const [row] = await getDb(env)
    .update(bookings)
    .set(
      mark.departed
        ? { arrivedAt: sql`coalesce(${bookings.arrivedAt}, ${at})`, departedAt: at, departedOn, updatedAt: at }
        : { arrivedAt: at, updatedAt: at },
    )
    .where(
      sql`${bookings.id} = ${id} and ${bookings.status} = 'confirmed' and ${bookings.checkIn} <= ${today} and ${which} is null`,
    )
    .returning();
  if (row) return { ok: true, changed: true, booking: row };
  const after = await getBooking(env, id);
  if (!after) return { ok: false, reason: 'missing' };
  if (after.status !== 'confirmed') return { ok: false, reason: 'notConfirmed' };
  return { ok: true, changed: false, booking: after };
}

/** The end of a stay as stayEnd says, in JavaScript. */
export const endOf = (b: Pick<Booking, 'checkOut' | 'departedOn'>): IsoDate => b.departedOn ?? b.checkOut;
