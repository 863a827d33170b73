import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserView } from '../../schema/account.ts';
import { UPLOAD_MAX_BYTES } from '../../schema/constants.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  type Api,
  callWith,
  expectError,
  expectNoChange,
  GIF,
  JPEG,
  jsonOf,
  jsonRequest,
  login,
  PNG,
  resetDataWithAdmin,
  seedCabin,
  send,
  sessionCookieFrom,
  WEBP,
} from './helpers.ts';

// The photo of a ticked task (docs/api.md «The owner's day»), on both runtimes: the cleaner takes
// one when ticking «Убрано» (or after) for a task of their own cabins, a new one replaces it, a file
// that is no photo changes nothing, and the owner sees it on the task. It is the panel's alone:
// never served by the public /media/.

type Task = InferResponseType<Api['admin']['tasks'][':id']['$put'], 200>;
type Today = InferResponseType<Api['admin']['today']['$get'], 200>;

beforeEach(resetDataWithAdmin);

// The cleaner's page at their link, as small as the server's filling needs (test/worker/cleaner.test.ts).
const ASSETS = {
  fetch: async (input: URL | string | Request) =>
    new URL(input instanceof Request ? input.url : input).pathname === '/shell/cleaner'
      ? new Response('<!doctype html><title>Уборки — Каспий</title><main data-cleaner-day></main>')
      : new Response('Not found', { status: 404 }),
} as unknown as Fetcher;
const withSite = callWith({ ASSETS });

/** A cleaner of these cabins, signed in through their private link: their session's cookie. */
async function cleanerOf(owner: string, cabinIds: number[]) {
  const made = await jsonOf<UserView>(
    await jsonRequest('POST', '/api/admin/users', { username: 'marina', role: 'cleaner', cabinIds }, { cookie: owner }),
    201,
  );
  const { url } = await jsonOf<{ url: string }>(
    await send('POST', `/api/admin/users/${made.id}/link`, { cookie: owner }),
    200,
  );
  const cookie = sessionCookieFrom(await withSite('GET', new URL(url).pathname));
  expect(cookie).toBeDefined();
  return cookie!;
}

async function addTask(owner: string, cabinId: number, kind = 'cleaning') {
  return jsonOf<Task>(
    await jsonRequest('POST', '/api/admin/tasks', { cabinId, due: todayInMoscow(), kind }, { cookie: owner }),
    201,
  );
}

function photoForm(bytes: Uint8Array<ArrayBuffer>, name = 'photo.jpg', type = 'image/jpeg', field = 'photo') {
  const form = new FormData();
  form.append(field, new File([bytes], name, { type }));
  return form;
}
const putPhoto = (cookie: string, id: number, body: FormData) =>
  send('PUT', `/api/admin/tasks/${id}/photo`, { cookie, body });

const tick = (cookie: string, id: number) => jsonRequest('PUT', `/api/admin/tasks/${id}`, { done: true }, { cookie });

async function mediaKeys() {
  return (await env.MEDIA.list()).objects.map((o) => o.key).sort();
}

/** What the panel shows at the photo's address: its type and bytes. */
async function seen(cookie: string, photo: string | null) {
  expect(photo).toMatch(/^\/api\/admin\/tasks\/\d+\/photo\?v=task-/);
  const res = await send('GET', photo!, { cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toMatch(/^private/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  return { type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('a task’s photo', () => {
  it('should keep the photo the cleaner takes when ticking «Убрано», show it to them and to the owner on «Сегодня», and never on /media/', async () => {
    const owner = await login();
    const cabin = await seedCabin({ name: 'Бриз' });
    const task = await addTask(owner, cabin.id);
    expect(task.photo).toBeNull();
    const cleaner = await cleanerOf(owner, [cabin.id]);

    expect((await tick(cleaner, task.id)).status).toBe(200);
    const withPhoto = await jsonOf<Task>(await putPhoto(cleaner, task.id, photoForm(JPEG)), 200);
    expect(withPhoto).toMatchObject({ id: task.id, done: true, cabinName: 'Бриз' });
    expect(await seen(cleaner, withPhoto.photo)).toEqual({ type: 'image/jpeg', bytes: JPEG });

    // The owner's «Сегодня» has it on the task, and its address shows the same photo.
    const day = await jsonOf<Today>(await send('GET', '/api/admin/today', { cookie: owner }), 200);
    expect(day.tasks.map((t) => [t.id, t.done, t.photo])).toEqual([[task.id, true, withPhoto.photo]]);
    expect(await seen(owner, day.tasks[0]!.photo)).toEqual({ type: 'image/jpeg', bytes: JPEG });

    // Stored through the media port under a task's key, which the public /media/ does not serve.
    const keys = await mediaKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^task-[0-9a-f-]{36}\.jpg$/);
    await expectError(await send('GET', `/media/${keys[0]}`), 404, MSG.notFound);
    // Nor can anyone signed out read it.
    await expectError(await send('GET', withPhoto.photo!), 401, MSG.unauthorized);
  });

  it('should replace the photo with a new one, at a new address, and remove the old file', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    const task = await addTask(owner, cabin.id, 'repair');
    const first = await jsonOf<Task>(await putPhoto(owner, task.id, photoForm(JPEG)), 200);
    const [firstKey] = await mediaKeys();

    const second = await jsonOf<Task>(await putPhoto(owner, task.id, photoForm(WEBP, 'b.webp', 'image/webp')), 200);
    expect(second.photo).not.toBe(first.photo);
    expect(second.done).toBe(false);
    expect(await seen(owner, second.photo)).toEqual({ type: 'image/webp', bytes: WEBP });
    const keys = await mediaKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(firstKey);
    expect(keys[0]).toMatch(/\.webp$/);

    // A PNG named and declared as JPEG is a PNG: the bytes decide.
    const third = await jsonOf<Task>(await putPhoto(owner, task.id, photoForm(PNG, 'c.jpg', 'image/jpeg')), 200);
    expect(await seen(owner, third.photo)).toEqual({ type: 'image/png', bytes: PNG });
    expect(await mediaKeys()).toEqual([expect.stringMatching(/^task-.*\.png$/)]);
  });

  it('should refuse a file that is no photo, a GIF, no file and a file over 10 MB, and change nothing', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    const task = await addTask(owner, cabin.id);
    const cleaner = await cleanerOf(owner, [cabin.id]);
    await putPhoto(cleaner, task.id, photoForm(JPEG));
    const big = new Uint8Array(UPLOAD_MAX_BYTES + 1);
    big.set(JPEG);
    await expectNoChange(async () => {
      const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      await expectError(await putPhoto(cleaner, task.id, photoForm(svg, 'a.jpg')), 400, MSG.taskPhotoType);
      await expectError(
        await putPhoto(cleaner, task.id, photoForm(new TextEncoder().encode('hello'), 'a.txt', 'text/plain')),
        400,
        MSG.taskPhotoType,
      );
      await expectError(await putPhoto(cleaner, task.id, photoForm(GIF, 'a.gif', 'image/gif')), 400, MSG.taskPhotoType);
      await expectError(
        await putPhoto(cleaner, task.id, photoForm(JPEG, 'a.jpg', 'image/jpeg', 'image')),
        400,
        MSG.taskPhotoMissing,
      );
      await expectError(await putPhoto(cleaner, task.id, photoForm(new Uint8Array(0))), 400, MSG.taskPhotoMissing);
      await expectError(await putPhoto(cleaner, task.id, photoForm(big)), 413, MSG.uploadTooLarge);
      await expectError(
        await jsonRequest('PUT', `/api/admin/tasks/${task.id}/photo`, { photo: 'x.jpg' }, { cookie: cleaner }),
        415,
        MSG.taskPhotoMissing,
      );
    });
  });

  it('should refuse a cleaner another cabin’s task, to attach or to see, with 403 and change nothing', async () => {
    const owner = await login();
    const mine = await seedCabin({ name: 'Бриз' });
    const other = await seedCabin({ name: 'Чайка' });
    const theirs = await addTask(owner, other.id);
    const withPhoto = await jsonOf<Task>(await putPhoto(owner, theirs.id, photoForm(JPEG)), 200);
    const bare = await addTask(owner, mine.id);
    const cleaner = await cleanerOf(owner, [mine.id]);
    await expectNoChange(async () => {
      await expectError(await putPhoto(cleaner, theirs.id, photoForm(PNG, 'a.png', 'image/png')), 403, MSG.forbidden);
      await expectError(await send('GET', withPhoto.photo!, { cookie: cleaner }), 403, MSG.forbidden);
      // A task that is not there is refused the same way: nothing tells which ids exist.
      await expectError(await putPhoto(cleaner, 999999, photoForm(JPEG)), 403, MSG.forbidden);
    });
    // The owner is told plainly.
    await expectNoChange(async () => {
      await expectError(await putPhoto(owner, 999999, photoForm(JPEG)), 404, MSG.taskNotFound);
      await expectError(await send('GET', '/api/admin/tasks/999999/photo', { cookie: owner }), 404, MSG.taskNotFound);
      await expectError(
        await send('GET', `/api/admin/tasks/${bare.id}/photo`, { cookie: owner }),
        404,
        MSG.taskPhotoNone,
      );
    });
  });
});
