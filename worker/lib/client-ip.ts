import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

/**
 * The visitor's address as the platform reports it: the Node server's socket (or its trusted
 * proxy's header), Cloudflare's `cf-connecting-ip` (a header clients cannot forge there).
 */
export const clientIp = (c: Context<AppEnv>): string =>
  (c.env.CLIENT_ADDRESS ? c.env.CLIENT_ADDRESS(c.req.raw) : c.req.header('cf-connecting-ip')) ?? 'unknown';
