// What «Журнал» shows of an entry's `before` and `after` (values the server already stripped of
// secrets): only the fields that changed, each value short enough to read on a phone.
import { ROLE_LABELS, type AuditEntry } from '../../../schema/account.ts';
import { BOOKING_STATUS_LABELS } from '../../../schema/booking-options.ts';

export type Change = { field: string; before?: string; after?: string };

const MAX_VALUE = 120;

/** The fields the owner meets most often, in the panel's words; any other keeps its own name. */
const FIELD_LABELS: Record<string, string> = {
  status: 'Статус',
  username: 'Логин',
  password: 'Пароль',
  newPassword: 'Новый пароль',
  currentPassword: 'Текущий пароль',
  role: 'Роль',
  cabinIds: 'Домики (номера)',
  path: 'Адрес панели',
  bookingMode: 'Как гости бронируют',
  prepayment: 'Предоплата',
  holdMinutes: 'Минут держать даты',
  deposit: 'Залог',
  cleaningFee: 'Уборка',
  touristTax: 'Туристический налог',
  vatCode: 'НДС в чеках',
  cancellation: 'Условия отмены',
  name: 'Название',
  price: 'Цена',
  isActive: 'Показывать на сайте',
  approved: 'Опубликован',
  userAgent: 'Устройство',
  ip: 'Адрес',
};
const VALUE_LABELS: Record<string, Record<string, string>> = {
  status: BOOKING_STATUS_LABELS,
  role: ROLE_LABELS,
  bookingMode: { request: 'заявка', prepayment: 'с предоплатой' },
};

export const fieldLabel = (field: string): string => FIELD_LABELS[field] ?? field;

/** A value in a line: text as is, the rest as compact JSON, cut at MAX_VALUE characters. */
export function shortValue(value: unknown, field = ''): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  const named = typeof value === 'string' ? VALUE_LABELS[field]?.[value] : undefined;
  const text = named ?? (typeof value === 'string' ? (value === '' ? '«»' : value) : JSON.stringify(value));
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields an entry changed: for two objects, the keys whose values differ (a save that sent
 * a whole form shows only what it changed); otherwise what there was and what there is.
 */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>): Change[] {
  const { before, after } = entry;
  if (before === undefined && after === undefined) return [];
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys
      .filter((k) => !same(before[k], after[k]))
      .map((k) => ({
        field: k,
        ...(k in before ? { before: shortValue(before[k], k) } : {}),
        ...(k in after ? { after: shortValue(after[k], k) } : {}),
      }));
  }
  if (isRecord(after) && before === undefined)
    return Object.entries(after).map(([k, v]) => ({ field: k, after: shortValue(v, k) }));
  if (isRecord(before) && after === undefined)
    return Object.entries(before).map(([k, v]) => ({ field: k, before: shortValue(v, k) }));
  return [
    {
      field: '',
      ...(before === undefined ? {} : { before: shortValue(before) }),
      ...(after === undefined ? {} : { after: shortValue(after) }),
    },
  ];
}

const TARGETS: readonly [RegExp, string][] = [
  [/\/bookings\/:id/, 'Заявка №'],
  [/\/cabins\/:id/, 'Домик №'],
  [/\/reviews\/:id/, 'Отзыв №'],
  [/\/users\/:id/, 'Пользователь №'],
  [/\/sessions\/:id/, 'Сеанс №'],
  [/\/blocks\/:id/, 'Закрытые даты №'],
  [/\/feeds\/:cabinId/, 'Домик №'],
];

/** What the entry concerned, in words: «Заявка №12»; null when it concerned nothing in particular. */
export function targetText(entry: Pick<AuditEntry, 'action' | 'target'>): string | null {
  if (!entry.target) return null;
  const noun = TARGETS.find(([re]) => re.test(entry.action))?.[1] ?? '№';
  const [id, ...rest] = entry.target.split('/');
  return `${noun}${id}${rest.length ? ` (${rest.join(', ')})` : ''}`;
}
