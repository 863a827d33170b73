import type { Context } from 'hono';
import { forLog } from './for-log.ts';

/**
 * Lets a task finish after the response (the platform's waitUntil: Workers' execution context,
 * or the Node server's, which also waits for it on shutdown). Its failure is logged, never thrown.
 */
export function afterResponse(c: Context, label: string, task: Promise<unknown>): void {
  const safe = task.catch((err) => console.error(`${label} failed`, forLog(err)));
  try {
    c.executionCtx.waitUntil(safe);
  } catch {
    // No execution context (a direct app.request in a unit test): let it run on its own.
  }
}
