import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

/** A cabin's secret iCal export address, on SITE_URL when set, else the address the owner came by. */
export const exportUrl = (c: Context<AppEnv>, token: string) =>
  `${(c.env.SITE_URL || new URL(c.req.url).origin).replace(/\/$/, '')}/api/ical/${token}.ics`;
