// The shop's keys for the ЮKassa stand-in (stand-ins/yookassa-api.ts) that the projects' global
// setup starts: the app called with them runs as a server with YOOKASSA_* set.
import { inject } from 'vitest';
import type { Bindings } from '../../worker/env.ts';

export const yk = inject('yookassa');
export const SHOP: Partial<Bindings> = {
  YOOKASSA_API_URL: yk.apiUrl,
  YOOKASSA_SHOP_ID: yk.shopId,
  YOOKASSA_SECRET_KEY: yk.secretKey,
};
