import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { bumpContentVersion } from '../queries/site-state.ts';

/**
 * After a successful write that changes what visitors see: bump the content version and call
 * the rebuild hook. Runs after the response in waitUntil, so it never fails the write.
 */
export const publishOnSuccess: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.ok && c.req.method !== 'GET') schedulePublish(c);
};

export function schedulePublish(c: Context<AppEnv>) {
  const task = (async () => {
    const version = await bumpContentVersion(c.env);
    const url = c.env.REBUILD_HOOK_URL;
    if (!url) return;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version }),
    });
    if (!res.ok) console.error('Rebuild hook answered', res.status);
  })().catch((err) => console.error('Rebuild hook failed', err));
  try {
    c.executionCtx.waitUntil(task);
  } catch {
    // No execution context (a direct app.request in a unit test): let it run on its own.
  }
}
