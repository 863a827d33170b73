import type { Settings } from '../../schema/settings.ts';
import { currentOf, depositRuleOf, depositViewOf } from '../payments/deposits.ts';
import { cabinDeposits, depositsWithStays, isOpen } from '../queries/deposits.ts';
import type { DayStay } from '../queries/today.ts';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type dayStayAnswer, stayAnswer, taskAnswer, taskListAnswer, todayAnswer } from '../../schema/answers.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  stayMarkSchema,
  taskInputSchema,
  tasksQuerySchema,
  taskUpdateSchema,
  TASKS_MAX_DAYS,
  todayQuerySchema,
} from '../../schema/tasks.ts';
import type { AppEnv } from '../env.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { forLog } from '../lib/for-log.ts';
import { imageUploadLimit, readUploadedImage } from '../lib/uploaded-image.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getSettings } from '../queries/settings.ts';
import {
  addTask,
  dayStays,
  endOf,
  getTask,
  listTasks,
  markStay,
  setTaskPhoto,
  type StayResult,
  taskPhotoKey,
  updateTask,
} from '../queries/today.ts';
import { cabinsOfCleaner } from '../queries/users.ts';
import { MEDIA_CSP, TASK_PHOTO_PREFIX } from './media.ts';
import { idParam } from './params.ts';

const doc = docs('Сегодня');

type DepositRow = Awaited<ReturnType<typeof depositsWithStays>>[number];

/**
 * The deposits «Сегодня» shows: of the day's stays (asked for, held, decided), and every one still
 * held on a card or paid and undecided whatever its dates, so none waits for a decision unseen.
 */
function todayDeposits(
  stays: DayStay[],
  held: DepositRow[],
  amounts: Map<number, number>,
  settings: Settings,
): z.infer<typeof todayAnswer>['deposits'] {
  const byBooking = new Map<number, DepositRow[]>();
  for (const r of held) byBooking.set(r.booking.id, [...(byBooking.get(r.booking.id) ?? []), r]);
  const out: z.infer<typeof todayAnswer>['deposits'] = [];
  const seen = new Set<number>();
  const add = (b: Pick<DayStay, 'id' | 'checkIn' | 'checkOut' | 'cabinName' | 'name' | 'cabinId'>) => {
    if (seen.has(b.id)) return;
    const rows = (byBooking.get(b.id) ?? []).map((r) => r.deposit);
    const view = depositViewOf(depositRuleOf(b, amounts.get(b.cabinId) ?? 0, settings), currentOf(rows));
    if (!view) return;
    seen.add(b.id);
    out.push({ ...view, bookingId: b.id, cabinName: b.cabinName, guestName: b.name });
  };
  for (const s of stays) add(s);
  for (const r of held) if (isOpen(r.deposit)) add({ ...r.booking, cabinName: r.cabinName });
  return out;
}

/** The types a task's photo may be: a phone's camera makes these (a GIF is no photo of a cabin). */
const PHOTO_TYPES = new Set(['jpg', 'png', 'webp']);
const PHOTO_MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * A cleaner touches only the tasks of their own cabins: refused (403) for another's, or a task
 * that is not there, so nothing tells them which ids exist. Everyone else goes on.
 */
async function refusedToCleaner(c: Context<AppEnv>, id: number): Promise<boolean> {
  const user = c.get('user')!;
  if (user.role !== 'cleaner') return false;
  const [task, cabins] = await Promise.all([getTask(c.env, id), cabinsOfCleaner(c.env, user.id)]);
  return !task || !cabins.includes(task.cabinId);
}

/** How a refused mark is answered: a booking not confirmed, or a day not come yet, is a conflict with its state. */
const REFUSAL: Record<Extract<StayResult, { ok: false }>['reason'], [400 | 404 | 409, string]> = {
  missing: [404, MSG.bookingNotFound],
  notConfirmed: [409, MSG.stayNotConfirmed],
  beforeCheckIn: [409, MSG.stayBeforeCheckIn],
  afterCheckOut: [400, MSG.stayDepartedAfterCheckOut],
  inFuture: [400, MSG.stayDepartedInFuture],
};

/**
 * «Сегодня»: the owner's (and a manager's) day. Arrivals, departures and stays of the day and the
 * next, the marks «Заехал» and «Выехал», and the tasks at the cabins, each departure's cleaning
 * among them (worker/queries/today.ts). Dates are Moscow's.
 */
export const todayRoutes = new Hono<AppEnv>()
  .get(
    '/today',
    doc('Сегодня: заезды, выезды, проживающие и задачи на день и на следующий', {
      admin: true,
      answer: todayAnswer,
      description:
        'День `date` (по умолчанию сегодня по Москве) и следующий. Только подтверждённые (и оплаченные) брони: ' +
        'заявки, брони в ожидании оплаты и отменённые сюда не попадают. У каждой брони — домик, гость и телефон, ' +
        'число гостей, время заезда и выезда из настроек, итог, оплачено и осталось оплатить (в копейках). ' +
        '`arrivals` заезжают, `departures` выезжают (при раннем выезде — в день `departedOn`), `staying` живут ' +
        'в один из двух дней; задачи — на оба дня, уборка после каждого выезда среди них. `deposits` — залоги ' +
        'этих броней (ждём, удерживается, возвращён, удержана часть) и каждый залог, всё ещё удерживаемый на карте ' +
        'или оплаченный и не возвращённый. ' +
        'Уборщику — только задачи его домиков, без гостей и денег: списки заездов, выездов и проживающих пусты.',
    }),
    requireAdmin,
    validate('query', todayQuerySchema),
    async (c) => {
      const date = c.req.valid('query').date ?? todayInMoscow(now());
      const next = addDays(date, 1);
      const user = c.get('user')!;
      if (user.role === 'cleaner') {
        // Nothing of a guest is read at all: the tasks of the cleaner's cabins alone.
        const tasks = await listTasks(c.env, date, next, await cabinsOfCleaner(c.env, user.id));
        return c.json({
          date,
          next,
          arrivals: [],
          departures: [],
          staying: [],
          tasks,
          deposits: [],
        } satisfies z.infer<typeof todayAnswer>);
      }
      const [stays, tasks, settings, held, amounts] = await Promise.all([
        dayStays(c.env, date, next),
        listTasks(c.env, date, next),
        getSettings(c.env),
        depositsWithStays(c.env),
        cabinDeposits(c.env),
      ]);
      const shown = stays.map(
        ({ earlyCheckIn, lateCheckOut, ...s }): z.infer<typeof dayStayAnswer> => ({
          ...s,
          // An early check-in or a late check-out the guest paid for moves the hour the owner sees.
          checkInTime: earlyCheckIn ?? settings.checkInTime,
          checkOutTime: lateCheckOut ?? settings.checkOutTime,
          toPay: Math.max(0, s.total * 100 - s.paid),
        }),
      );
      const on = (d: string) => d === date || d === next;
      return c.json({
        date,
        next,
        arrivals: shown.filter((s) => on(s.checkIn)),
        departures: shown.filter((s) => on(endOf(s))),
        staying: shown.filter((s) => [date, next].some((d) => s.checkIn < d && d < endOf(s))),
        tasks,
        deposits: todayDeposits(stays, held, amounts, settings),
      } satisfies z.infer<typeof todayAnswer>);
    },
  )
  .put(
    '/bookings/:id/stay',
    doc('Отметить «Заехал» или «Выехал»', {
      admin: true,
      answer: stayAnswer,
      errors: [404, 409],
      description:
        'Одна условная запись на подтверждённой брони: повтор и одновременные нажатия ничего не меняют ' +
        '(`changed: false`). До дня заезда и у отменённой или неподтверждённой брони — 409 с причиной. ' +
        '«Выехал» отмечает и заезд. `departedOn` — день выезда (по умолчанию сегодня); раньше выезда по брони — ' +
        'ранний выезд: ночи с этого дня снова свободны в календаре, поиске, выгрузке iCal и на Авито.',
    }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', stayMarkSchema),
    async (c) => {
      const result = await markStay(c.env, c.req.valid('param').id, c.req.valid('json'), todayInMoscow(now()));
      if (!result.ok) {
        const [status, message] = REFUSAL[result.reason];
        return apiError(c, status, message);
      }
      const b = result.booking;
      return c.json({
        id: b.id,
        arrivedAt: b.arrivedAt,
        departedAt: b.departedAt,
        departedOn: b.departedOn,
        checkIn: b.checkIn,
        checkOut: b.checkOut,
        changed: result.changed,
      } satisfies z.infer<typeof stayAnswer>);
    },
  )
  .get(
    '/tasks',
    doc('Задачи по домикам за период', {
      admin: true,
      answer: taskListAnswer,
      description:
        'Задачи со сроком в [`from`, `to`] (`from` по умолчанию сегодня, `to` — как `from`; не больше 62 дней), одного домика или всех. ' +
        'Уборка после каждого выезда подтверждённой брони есть всегда: у отменённой брони её нет, у перенесённой ' +
        'или досрочно закончившейся она в новый день выезда.',
    }),
    requireAdmin,
    validate('query', tasksQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const from = q.from ?? todayInMoscow(now());
      const to = q.to ?? from;
      if (to < from) return apiError(c, 400, MSG.datesOrder);
      if (addDays(from, TASKS_MAX_DAYS - 1) < to) return apiError(c, 400, MSG.todayRangeTooLong);
      return c.json(await listTasks(c.env, from, to, q.cabinId));
    },
  )
  .post(
    '/tasks',
    doc('Добавить задачу', { admin: true, status: 201, answer: taskAnswer, errors: [404] }),
    requireAdmin,
    jsonBody,
    validate('json', taskInputSchema),
    async (c) => {
      const task = await addTask(c.env, c.req.valid('json'));
      if (!task) return apiError(c, 404, MSG.cabinNotFound);
      return c.json(task satisfies z.infer<typeof taskAnswer>, 201);
    },
  )
  .put(
    '/tasks/:id',
    doc('Отметить задачу выполненной (или нет), изменить заметку', {
      admin: true,
      answer: taskAnswer,
      errors: [404],
      description:
        '«Убрано» у уборки: домик в «Шахматке» больше не ждёт уборки в этот день. ' +
        'Уборщик отмечает только задачи своих домиков (чужая — 403).',
    }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', taskUpdateSchema),
    async (c) => {
      const id = c.req.valid('param').id;
      if (await refusedToCleaner(c, id)) return apiError(c, 403, MSG.forbidden);
      const task = await updateTask(c.env, id, c.req.valid('json'));
      if (!task) return apiError(c, 404, MSG.taskNotFound);
      return c.json(task satisfies z.infer<typeof taskAnswer>);
    },
  )
  .put(
    '/tasks/:id/photo',
    doc('Прикрепить фото к задаче (multipart, поле photo)', {
      admin: true,
      answer: taskAnswer,
      errors: [404, 413, 415],
      body: { media: 'multipart/form-data', schema: z.object({ photo: z.file() }) },
      description:
        'Одно фото к задаче — например, уборщик снимает домик, отмечая «Убрано» (или позже). JPG, PNG или WebP ' +
        'до 10 МБ, тип — по первым байтам файла; другой файл — 400, ничего не меняется. Новое фото заменяет ' +
        'прежнее. `photo` в ответе — адрес, по которому фото видно в панели (GET …/photo); на сайт, в ' +
        '`/media/` и в карту сайта оно не попадает. Уборщик прикрепляет фото только к задачам своих домиков (чужая — 403).',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c, next) => {
      if (await refusedToCleaner(c, c.req.valid('param').id)) return apiError(c, 403, MSG.forbidden);
      return imageUploadLimit(c, next);
    },
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getTask(c.env, id))) return apiError(c, 404, MSG.taskNotFound);
      const image = await readUploadedImage(c, 'photo', MSG.taskPhotoMissing);
      // Not a photo by its bytes (or a GIF): a bad file, refused as a bad request.
      if (!image.ok && image.error === MSG.uploadType) return apiError(c, 400, MSG.taskPhotoType);
      if (!image.ok) return apiError(c, image.status, image.error);
      if (!PHOTO_TYPES.has(image.type.ext)) return apiError(c, 400, MSG.taskPhotoType);
      const key = `${TASK_PHOTO_PREFIX}${crypto.randomUUID()}.${image.type.ext}`;
      await c.env.MEDIA.put(key, image.bytes, { httpMetadata: { contentType: image.type.mime } });
      const set = await setTaskPhoto(c.env, id, key);
      const gone = set ? set.replaced : key;
      // The object nobody points at any more: the replaced photo, or this one when the task went meanwhile.
      if (gone)
        await c.env.MEDIA.delete(gone).catch((err) =>
          console.error(`The photo ${gone} of task ${id} could not be removed:`, forLog(err)),
        );
      if (!set) return apiError(c, 404, MSG.taskNotFound);
      return c.json(set.task satisfies z.infer<typeof taskAnswer>);
    },
  )
  .get(
    '/tasks/:id/photo',
    doc('Фото задачи', {
      admin: true,
      answer: { description: 'Фото (JPG, PNG или WebP)', media: 'image/*' },
      errors: [404],
      description:
        'Только в панели: владельцу и управляющему — любой задачи, уборщику — задач своих домиков (чужая — 403).',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (await refusedToCleaner(c, id)) return apiError(c, 403, MSG.forbidden);
      const key = await taskPhotoKey(c.env, id);
      if (key === undefined) return apiError(c, 404, MSG.taskNotFound);
      if (key === null) return apiError(c, 404, MSG.taskPhotoNone);
      const object = await c.env.MEDIA.get(key);
      if (!object || !('body' in object) || !object.body) return apiError(c, 404, MSG.taskPhotoNone);
      return new Response(object.body, {
        headers: {
          'content-type': PHOTO_MIME[key.split('.').pop()!] ?? 'application/octet-stream',
          // A key is never reused (the address carries it), but the photo is only for who signed in.
          'cache-control': 'private, max-age=86400',
          'content-security-policy': MEDIA_CSP,
          'x-content-type-options': 'nosniff',
        },
      });
    },
  );
