// The owner's first hour in the panel: «С чего начать», each step done or not as the
// data says, and the demo content that can go in one step. Plain constants for the panel and the
// worker alike.
import { z } from 'zod';
import { MSG } from './messages.ts';

/** The steps, in the order an owner takes them; `tab` is where the panel does each («#settings/guests» style). */
export const CHECKLIST = [
  {
    key: 'password',
    label: 'Смените пароль',
    hint: 'Пароль демо-версии знают все, кто читал инструкцию',
    tab: 'account',
  },
  {
    key: 'twoFactor',
    label: 'Включите вход с кодом из приложения',
    hint: 'Двухфакторный вход: даже узнав пароль, без телефона в панель не войти',
    tab: 'account',
  },
  {
    key: 'contacts',
    label: 'Ваши контакты и карта',
    hint: 'Телефон, почта, адрес и карта — гости увидят их на сайте',
    tab: 'contacts',
  },
  { key: 'cabins', label: 'Ваши домики', hint: 'Фото, цены, сколько гостей входит в цену', tab: 'cabins' },
  {
    key: 'calendar',
    label: 'Календари площадок или Авито',
    hint: 'Чтобы занятые на других площадках даты не продавались дважды',
    tab: 'calendar/channels',
  },
  {
    key: 'payments',
    label: 'Предоплата через ЮKassa или только заявки',
    hint: 'Как гости бронируют: выберите и сохраните',
    tab: 'settings',
  },
  {
    key: 'alerts',
    label: 'Уведомления о заявках',
    hint: 'Бот в MAX (или Telegram, почта на сервере) — чтобы не пропустить гостя',
    tab: 'settings',
  },
  {
    key: 'registry',
    label: 'Номер в реестре средств размещения',
    hint: 'С 1 сентября 2025 года сдавать можно только с записью в реестре',
    tab: 'settings',
  },
] as const;
export type ChecklistKey = (typeof CHECKLIST)[number]['key'];

/** What is left of the demo content, for the confirmation that says what goes. */
export type DemoSummary = { cabins: number; reviews: number; bookings: number; photos: number; settings: number };

/** GET /api/admin/checklist. `demo` is null once nothing of the demo is left (or there never was one). */
export type ChecklistAnswer = {
  items: { key: ChecklistKey; done: boolean }[];
  dismissed: boolean;
  demo: DemoSummary | null;
};

/** PUT /api/admin/checklist: hide it (or show it again). */
export const checklistUpdateSchema = z.strictObject(
  { dismissed: z.boolean({ error: MSG.badInput }) },
  { error: MSG.badInput },
);

/**
 * What the seeding wrote, so «Убрать демо-данные» takes exactly that away and nothing the owner
 * made or changed: each demo cabin's and review's fingerprint at seeding (one edited since no
 * longer matches and stays), the demo bookings, photos and the settings values as seeded.
 */
export type DemoRecord = {
  cabins: Record<string, string>;
  reviews: Record<string, string>;
  bookings: number[];
  photos: string[];
  settings: Record<string, unknown>;
};

/** The settings fields that name the demo's place and owner: emptied when they still hold the demo's values. */
export const DEMO_CONTACT_FIELDS = [
  'phone',
  'email',
  'address',
  'footerPhone',
  'footerEmail',
  'footerAddress',
  'mapEmbedCode',
  'registryNumber',
  'registryUrl',
  'galleryImages',
] as const;
