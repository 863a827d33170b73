import type { TestProject } from 'vitest/node';
import { startAvitoStandIn, type AvitoStandIn } from './avito-api.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The Avito stand-in the channel tests talk to: its API base (AVITO_API_URL), its own address,
     * and where its controls answer over HTTP (tests inside workerd cannot call its methods).
     */
    avito: { apiUrl: string; base: string; controlUrl: string };
  }
}

// One stand-in for every project that runs this setup (the worker tests on workerd and on Node):
// global setups run in vitest's main process, so the first starts it and the last stops it. Files
// running at once share it: each should add its own client and listings, and scope failures and
// resets by its clientId (POST /_control/fail and /_control/reset take one).
type Shared = { standIn: Promise<AvitoStandIn>; users: number };
const KEY = Symbol.for('kaspiy.avito.stand-in');
const shared = globalThis as unknown as { [KEY]?: Shared };

export default async function setup(project: TestProject) {
  const entry = (shared[KEY] ??= { standIn: startAvitoStandIn(), users: 0 });
  entry.users += 1;
  const standIn = await entry.standIn;
  project.provide('avito', { apiUrl: standIn.apiUrl, base: standIn.base, controlUrl: standIn.controlUrl });
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[KEY];
    await standIn.close();
  };
}
