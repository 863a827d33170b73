import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { bumpContentVersion } from '../queries/site-state.ts';
import { afterResponse } from './background.ts';

/**
 * After a successful write that changes what visitors see: bump the content version and ask the
 * platform's rebuild port for a new site. Runs after the response in waitUntil, so it never
 * fails the write.
 */
export const publishOnSuccess: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.ok && c.req.method !== 'GET') schedulePublish(c);
};

export function schedulePublish(c: Context<AppEnv>) {
  afterResponse(
    c,
    'Rebuild request',
    (async () => {
      const version = await bumpContentVersion(c.env);
      await c.env.REBUILD?.request(version);
    })(),
  );
}
