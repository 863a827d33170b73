/// <reference types="vite/client" />
// The owner's journeys that change data but never wait for the public site to be rebuilt («Заявки»,
// «Сегодня», «Сообщения», channels, deposits, the account), one after another in this one file on
// a stack of their own (test/e2e/global-setup.ts): they used to run among the content journeys,
// the run's longest path, and now run beside them once the project tests are done
// (vitest.config.ts). A journey that waits for a rebuild belongs in admin/ or content/
// (content-journeys.test.ts). One journey alone: `npx vitest run --project e2e-panel -t '<its describe>'`.
const journeys = import.meta.glob('./panel/*.journey.ts', { eager: true });

if (Object.keys(journeys).length === 0) throw new Error('no panel journeys found in test/e2e/panel');
