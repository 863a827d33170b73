import { useCallback, useSyncExternalStore } from 'react';

/**
 * Unsaved form edits live here rather than in component state, so nothing the owner typed is
 * lost when a tab changes, the modal closes by accident, the page reloads or the session ends:
 * a draft is dropped only when it is saved or the owner chooses to discard it.
 * Kept in localStorage (never passwords: forms leave those out).
 */
export type DraftKey =
  | 'cabin'
  | 'contacts'
  | 'messengers'
  | 'settings'
  | 'payments'
  | 'discounts'
  | 'extras'
  | 'promoCodes'
  | 'account'
  | 'guests'
  | 'promotion';

export const DRAFT_LABELS: Record<DraftKey, string> = {
  cabin: 'Домики',
  contacts: 'Контакты',
  messengers: 'Контакты: мессенджеры',
  settings: 'Настройки',
  payments: 'Настройки: бронирование и оплата',
  discounts: 'Цены и скидки: скидки',
  extras: 'Цены и скидки: услуги',
  promoCodes: 'Цены и скидки: промокоды',
  guests: 'Настройки: гостям',
  promotion: 'Настройки: продвижение',
  account: 'Аккаунт',
};

const STORAGE_KEY = 'kaspiy-admin-drafts';
type Store = Partial<Record<DraftKey, unknown>>;

let store: Store = load();
const listeners = new Set<() => void>();

function load(): Store {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Store) : {};
  } catch {
    return {};
  }
}

function persist() {
  try {
    if (Object.keys(store).length === 0) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(store));
  } catch {
    // Private mode or a full storage: the draft still lives in memory for this page.
  }
}

function emit() {
  for (const fn of listeners) fn();
}

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function getDraft<T>(key: DraftKey): T | undefined {
  return store[key] as T | undefined;
}

export function setDraft<T>(key: DraftKey, value: T) {
  store = { ...store, [key]: value };
  persist();
  emit();
}

export function clearDraft(key: DraftKey) {
  if (!(key in store)) return;
  const { [key]: _dropped, ...rest } = store;
  store = rest;
  persist();
  emit();
}

export function clearAllDrafts() {
  store = {};
  persist();
  emit();
}

/** Which forms hold unsaved edits right now. */
export function draftKeys(): DraftKey[] {
  return Object.keys(store) as DraftKey[];
}

/** The draft of one form, re-rendering when it changes. */
export function useDraft<T>(key: DraftKey): [T | undefined, (value: T) => void, () => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => store[key] as T | undefined,
    () => undefined,
  );
  const set = useCallback((v: T) => setDraft(key, v), [key]);
  const clear = useCallback(() => clearDraft(key), [key]);
  return [value, set, clear];
}

/** Every form that holds a draft, re-rendering when that changes. */
export function useDraftKeys(): DraftKey[] {
  const snapshot = useSyncExternalStore(
    subscribe,
    () => store,
    () => ({}) as Store,
  );
  return Object.keys(snapshot) as DraftKey[];
}
