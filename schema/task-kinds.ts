// The kinds of a task at a cabin, without zod: the cleaner's page (a few KB of script) reads them
// as the panel does (schema/tasks.ts re-exports them).

export const TASK_KINDS = ['cleaning', 'repair', 'other'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_KIND_LABELS: Record<TaskKind, string> = { cleaning: 'Уборка', repair: 'Ремонт', other: 'Другое' };
export const TASK_NOTE_MAX = 500;
