import type { Context } from 'hono';

/** The visitor's address as Cloudflare reports it (the header clients cannot forge there). */
export const clientIp = (c: Context): string => c.req.header('cf-connecting-ip') ?? 'unknown';
