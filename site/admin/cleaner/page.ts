// The cleaner's page (site/pages/shell/cleaner.astro): today's and tomorrow's tasks of the cleaner's
// cabins from GET /api/admin/today, each ticked «Убрано» (with a note and a photo, if they like) by
// PUT /api/admin/tasks/{id} and PUT /api/admin/tasks/{id}/photo, and «Выйти». Plain DOM, no framework: the page's whole script is a few
// KB. Text goes in as text (textContent, value), never as HTML.
import { MONTHS_GENITIVE } from '../../../schema/format.ts';
import { TASK_KIND_LABELS, TASK_NOTE_MAX, type TaskKind } from '../../../schema/task-kinds.ts';

type Task = {
  id: number;
  cabinName: string;
  due: string;
  kind: TaskKind;
  note: string;
  done: boolean;
  photo: string | null;
};
type Day = { date: string; next: string; tasks: Task[] };

const OFFLINE = 'Нет связи с сервером. Проверьте интернет и попробуйте ещё раз.';
const ENDED = 'Сеанс закончился. Чтобы войти снова, откройте вашу ссылку для входа ещё раз.';

const dayText = (date: string) => `${Number(date.slice(8))} ${MONTHS_GENITIVE[Number(date.slice(5, 7)) - 1]}`;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

/** The answer's JSON, or the reason as the API words it (`{ error }`); a 401 ends the page. */
async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/admin/${path}`, { ...init, credentials: 'same-origin' });
  } catch {
    throw new Error(OFFLINE);
  }
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (res.status === 401) {
    ended(ENDED);
    throw new Error(ENDED);
  }
  if (!res.ok || body === null) throw new Error(body?.error ?? OFFLINE);
  return body;
}

let root: HTMLElement;
let notices: HTMLElement;

function say(text: string) {
  notices.replaceChildren(el('p', { className: 'notice', textContent: text }));
  setTimeout(() => notices.firstChild?.textContent === text && notices.replaceChildren(), 4000);
}

function ended(text: string) {
  document.querySelector('[data-cleaner-logout]')?.remove();
  root.replaceChildren(el('p', { className: 'alert', role: 'status', textContent: text }));
}

function taskItem(t: Task): HTMLLIElement {
  const label = t.kind === 'cleaning' ? 'Убрано' : 'Сделано';
  const what = el('p', { className: 'today__guest' });
  const item = el(
    'li',
    {},
    el('div', { className: 'today__what' }, el('p', { className: 'today__cabin', textContent: t.cabinName }), what),
  );
  const noteId = `cleaner-note-${t.id}`;
  const note = el('input', { id: noteId, className: 'input', maxLength: TASK_NOTE_MAX });
  const noteField = el(
    'div',
    { className: 'field' },
    el('label', { className: 'label', htmlFor: noteId, textContent: 'Заметка (необязательно)' }),
    note,
  );
  // A photo of the cabin as left: sent with «Убрано», or on its own once the task is done. Only the
  // types the server takes: an iPhone then hands over its HEIC camera shot as a JPEG.
  const photoId = `cleaner-photo-${t.id}`;
  const photo = el('input', {
    id: photoId,
    type: 'file',
    className: 'today__file',
    accept: 'image/jpeg,image/png,image/webp',
  });
  const photoLabel = el('label', { className: 'label', htmlFor: photoId });
  const photoField = el('div', { className: 'field' }, photoLabel, photo);
  const picture = el('a', { className: 'today__photo', target: '_blank', rel: 'noopener' });
  const button = el('button', { type: 'button', textContent: label });
  button.setAttribute('aria-label', `${label}: «${t.cabinName}»`);
  item.appendChild(el('div', { className: 'today__actions' }, button));

  const show = (task: Task) => {
    t = task;
    item.className = `today__item today__task${t.done ? ' is-done' : ''}`;
    what.textContent = `${TASK_KIND_LABELS[t.kind]}${t.note ? `: ${t.note}` : ''}${t.done ? ` — ${label.toLowerCase()}` : ''}`;
    button.className = `btn btn--sm ${t.done ? 'btn--ghost' : 'btn--primary'}`;
    button.setAttribute('aria-pressed', String(t.done));
    if (t.done) noteField.remove();
    else if (!noteField.isConnected) item.firstElementChild?.insertBefore(noteField, photoField);
    photoLabel.textContent = t.done ? (t.photo ? 'Заменить фото' : 'Добавить фото') : 'Фото (необязательно)';
    if (t.photo) {
      picture.href = t.photo;
      picture.replaceChildren(
        el('img', { src: t.photo, alt: `Фото: «${t.cabinName}»`, width: 72, height: 72, decoding: 'async' }),
      );
      item.firstElementChild?.insertBefore(picture, noteField.isConnected ? noteField : photoField);
    } else picture.remove();
  };
  item.firstElementChild?.appendChild(photoField);
  show(t);

  /** The chosen photo sent to the task: the task as it now is. The field is emptied once it is stored. */
  const sendPhoto = async () => {
    const form = new FormData();
    form.append('photo', photo.files![0]!);
    const task = await api<Task>(`tasks/${t.id}/photo`, { method: 'PUT', body: form });
    photo.value = '';
    return task;
  };

  // Once the task is done, a photo chosen goes at once.
  photo.addEventListener('change', async () => {
    if (!t.done || !photo.files?.length) return;
    photo.disabled = true;
    try {
      show(await sendPhoto());
      say(`«${t.cabinName}»: фото сохранено`);
    } catch (err) {
      say(`Не удалось сохранить фото: ${(err as Error).message}`);
    } finally {
      photo.disabled = false;
    }
  });

  button.addEventListener('click', async () => {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    const typed = !t.done ? note.value.trim() : '';
    try {
      // The photo first: a file refused leaves the task as it was, to try again.
      if (!t.done && photo.files?.length) show(await sendPhoto());
      const task = await api<Task>(`tasks/${t.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(typed ? { done: !t.done, note: typed } : { done: !t.done }),
      });
      note.value = '';
      show(task);
      say(task.done ? `«${t.cabinName}»: ${label.toLowerCase()}` : `«${t.cabinName}»: задача снова открыта`);
    } catch (err) {
      say(`Не удалось сохранить: ${(err as Error).message}`);
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  });
  return item;
}

function render(day: Day) {
  root.replaceChildren(
    ...[day.date, day.next].map((date, i) => {
      const id = `cleaner-${date}`;
      const tasks = day.tasks.filter((t) => t.due === date);
      return el(
        'section',
        { className: 'today__day' },
        el('h3', { className: 'today__title', id, textContent: `${i === 0 ? 'Сегодня' : 'Завтра'}, ${dayText(date)}` }),
        tasks.length === 0
          ? el('p', { className: 'today__empty', textContent: 'Уборок нет' })
          : el('ul', { className: 'today__list' }, ...tasks.map(taskItem)),
      );
    }),
  );
  for (const section of root.querySelectorAll('section'))
    section.setAttribute('aria-labelledby', section.querySelector('h3')!.id);
}

type Messengers = Record<'telegram' | 'max', { available: boolean; linked: boolean }>;
const MESSENGER_NAMES = { telegram: 'Telegram', max: 'MAX' } as const;

/**
 * «Получать список в Telegram» (and MAX, where the owner connected its bot): a one-time link to the
 * owner's bot, whose «Начать» ties the chat; each morning the day's list comes there.
 */
async function renderMessengers() {
  const box = document.querySelector<HTMLElement>('[data-cleaner-messengers]');
  if (!box) return;
  let state: Messengers;
  try {
    state = await api<Messengers>('today/messengers');
  } catch {
    return;
  }
  const rows = (['telegram', 'max'] as const).flatMap((channel): HTMLElement[] => {
    const { available, linked } = state[channel];
    const name = MESSENGER_NAMES[channel];
    if (linked) return [el('p', { className: 'muted', textContent: `Список уборок приходит в ${name} каждое утро` })];
    if (!available) return [];
    const button = el('button', {
      type: 'button',
      className: 'btn btn--secondary btn--sm',
      textContent: `Получать список в ${name}`,
    });
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const { url } = await api<{ url: string }>(`today/messengers/${channel}`, { method: 'POST' });
        window.location.href = url;
      } catch (err) {
        say(`Не удалось получить ссылку: ${(err as Error).message}`);
      } finally {
        button.disabled = false;
      }
    });
    return [button];
  });
  box.replaceChildren(...rows);
}

async function load() {
  try {
    render(await api<Day>('today'));
  } catch (err) {
    if ((err as Error).message === ENDED) return;
    const retry = el('button', { type: 'button', className: 'btn btn--primary', textContent: 'Повторить' });
    retry.addEventListener('click', () => void load());
    root.replaceChildren(el('p', { className: 'alert', role: 'alert', textContent: (err as Error).message }), retry);
  }
}

export function startCleanerPage() {
  root = document.querySelector<HTMLElement>('[data-cleaner-day]')!;
  notices = document.querySelector<HTMLElement>('[data-cleaner-notice]')!;
  document.querySelector('[data-cleaner-logout]')?.addEventListener('click', async () => {
    await fetch('/api/admin/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => null);
    ended('Вы вышли. Чтобы войти снова, откройте вашу ссылку для входа.');
  });
  void load();
  void renderMessengers();
}
