/// <reference types="vite/client" />
// The journeys that change the public site (the owner's panel, settings that reshape the public
// pages) and wait for its rebuild run one after another in this one test file, on the shared
// stack (test/e2e/global-setup.ts), beside the contract and server tests rather than after them:
// they mostly wait for rebuilds, which leaves CPU the other tests use. One file, so none of them
// ever runs beside another and sees its change, and so vitest gives them one worker of their own
// from the start (vitest.config.ts). Each journey is a file of its own in admin/ and content/; a
// new one is picked up by its name. The panel's journeys that never wait for a rebuild are in
// panel/, on a stack of their own (panel-journeys.test.ts). One journey alone:
// `npx vitest run --project e2e-content -t '<its describe>'`.
const journeys = import.meta.glob(['./admin/*.journey.ts', './content/*.journey.ts'], { eager: true });

if (Object.keys(journeys).length === 0)
  throw new Error('no content journeys found in test/e2e/admin and test/e2e/content');
