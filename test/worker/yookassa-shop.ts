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

/** Posts to one of the stand-in's own controls (`/_outage`, `/_holds`…) and gives its status. */
export const standInControl = (path: string, body: unknown) =>
  fetch(`${yk.base}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  }).then((r) => r.status);

/**
 * A shop of the calling test's own at the stand-in (POST /_shops), with its bindings: a test that
 * takes its shop down or refuses its holds then never breaks the tests running beside it (the
 * worker tests on both runtimes share one stand-in).
 */
export async function ownShop(name: string): Promise<Partial<Bindings> & { YOOKASSA_SHOP_ID: string }> {
  const shopId = `${name}-${crypto.randomUUID()}`;
  const status = await standInControl('/_shops', { shopId, secretKey: yk.secretKey });
  if (status !== 200) throw new Error(`the ЮKassa stand-in did not add the shop ${shopId}: ${status}`);
  return { ...SHOP, YOOKASSA_SHOP_ID: shopId };
}
