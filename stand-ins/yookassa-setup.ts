import type { TestProject } from 'vitest/node';
import { startYooKassaStandIn, type YooKassaStandIn } from './yookassa-api.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The ЮKassa stand-in the payment tests talk to: its API base, the shop's keys, its own address. */
    yookassa: { apiUrl: string; shopId: string; secretKey: string; base: string };
  }
}

// One stand-in for every project that runs this setup (the worker tests on workerd and on Node):
// global setups run in vitest's main process, so the first starts it and the last stops it.
type Shared = { standIn: Promise<YooKassaStandIn>; users: number };
const KEY = Symbol.for('kaspiy.yookassa.stand-in');
const shared = globalThis as unknown as { [KEY]?: Shared };

export default async function setup(project: TestProject) {
  const entry = (shared[KEY] ??= {
    standIn: startYooKassaStandIn({ shopId: 'test-shop', secretKey: 'test_secret_key' }),
    users: 0,
  });
  entry.users += 1;
  const standIn = await entry.standIn;
  project.provide('yookassa', {
    apiUrl: standIn.apiUrl,
    shopId: standIn.shopId,
    secretKey: standIn.secretKey,
    base: standIn.apiUrl.replace(/\/v3$/, ''),
  });
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[KEY];
    await standIn.close();
  };
}
