// The owner's day («Сегодня», docs/api.md «The owner's day»): the guests' arrivals and departures
// and the tasks at the cabins. Plain zod, so the panel's forms check what the routes check.
import { z } from 'zod';
import { isIsoDate, nightsBetween } from './dates.ts';
import { MSG } from './messages.ts';

import { TASK_KINDS, TASK_NOTE_MAX } from './task-kinds.ts';

export { TASK_KIND_LABELS, TASK_KINDS, TASK_NOTE_MAX, type TaskKind } from './task-kinds.ts';
/** The longest period GET /api/admin/tasks lists at once. */
export const TASKS_MAX_DAYS = 62;

const day = z.string({ error: MSG.dateInvalid }).refine(isIsoDate, MSG.dateInvalid);
const note = z.string({ error: MSG.badInput }).trim().max(TASK_NOTE_MAX, MSG.tooLong);
const cabinId = z.number({ error: MSG.taskCabinInvalid }).int(MSG.taskCabinInvalid).positive(MSG.taskCabinInvalid);

/** GET /api/admin/today?date: the day (today in Moscow when absent) and the next. */
export const todayQuerySchema = z.object({ date: day.optional() });

/** GET /api/admin/tasks?from&to&cabinId: the tasks due in [from, to], both days included. */
export const tasksQuerySchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    cabinId: z
      .string({ error: MSG.badId })
      .regex(/^[1-9]\d{0,9}$/, MSG.badId)
      .transform(Number)
      .optional(),
  })
  .refine((q) => !isIsoDate(q.from) || !isIsoDate(q.to) || q.from <= q.to, MSG.datesOrder)
  .refine(
    (q) => !isIsoDate(q.from) || !isIsoDate(q.to) || nightsBetween(q.from, q.to) < TASKS_MAX_DAYS,
    MSG.todayRangeTooLong,
  );

/**
 * PUT /api/admin/bookings/{id}/stay: «Заехал», «Выехал», or both; `departedOn` (only with
 * `departed`) is the day the guest left, today when absent; before check-out, it frees the nights after.
 */
export const stayMarkSchema = z
  .strictObject({
    arrived: z.literal(true, { error: MSG.stayMarkRequired }).optional(),
    departed: z.literal(true, { error: MSG.stayMarkRequired }).optional(),
    departedOn: day.optional(),
  })
  .refine((b) => b.arrived || b.departed, MSG.stayMarkRequired)
  .refine((b) => !b.departedOn || b.departed, MSG.stayDepartedOnAlone);
export type StayMark = z.infer<typeof stayMarkSchema>;

/** POST /api/admin/tasks: a task the owner adds. */
export const taskInputSchema = z.strictObject({
  cabinId,
  due: day,
  kind: z.enum(TASK_KINDS, { error: MSG.taskKindInvalid }),
  note: note.optional().default(''),
});
export type TaskInput = z.infer<typeof taskInputSchema>;

/** PUT /api/admin/tasks/{id}: done or not (the cleaning ticked «Убрано»), and its note. */
export const taskUpdateSchema = z.strictObject({
  done: z.boolean({ error: MSG.taskDoneInvalid }),
  note: note.optional(),
});
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;
