import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { standInBindings } from './test/stand-in-bindings.ts';

// Every site a test builds (each stack, each server test) copies the photos another has already
// made instead of making them again (scripts/lib/image-pool.ts); set here, so every test process
// and the servers they start inherit it.
process.env.SITE_IMAGE_POOL ??= path.join(import.meta.dirname, 'node_modules/.cache/astro-image-pool');
// …and encode their AVIF photos at sharp's effort 0 instead of the site's 3 (astro.config.mjs): a
// first build of the demo took 37 s of CPU instead of 117 s (20 s instead of 41 s on two idle
// cores), and the content journeys wait for it. The photos come out ~23% larger, the same sizes
// and formats; no test weighs a photo's bytes (the bench does, on sites it builds without this).
process.env.SITE_AVIF_EFFORT ??= '0';
// Every Node process the tests start (the self-hosted servers, the builds, wrangler, the test
// workers) reads its modules' compiled code from one cache instead of compiling them again: a
// self-hosted server answered 0.3–0.4 s sooner (1.9 s to 1.55 s), Astro and Vite loaded with a
// third less CPU. Node's own cache, a quiet optimisation: a file it cannot use is compiled as before.
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, 'node_modules/.cache/node-compile');

/** The stand-ins the API contract tests talk to, started once for both runtimes' projects. */
const CONTRACT_STAND_INS = [
  'stand-ins/max-global-setup.ts',
  'stand-ins/yookassa-setup.ts',
  'stand-ins/avito-setup.ts',
  'stand-ins/feed-setup.ts',
  'stand-ins/mail-api-setup.ts',
  'stand-ins/telegram-setup.ts',
  'stand-ins/indexnow-setup.ts',
  'stand-ins/sms-setup.ts',
];

/** What both end-to-end projects share: Node, Chromium, the one server, room for a rebuild. */
const e2e = {
  environment: 'node',
  // Files share their worker, so one Chromium serves them all (test/e2e/browser.ts).
  isolate: false,
  globalSetup: ['test/e2e/global-setup.ts'],
  setupFiles: ['test/e2e/wait-for-stack.ts'],
  // A journey walks many screens and waits for rebuilds; beside the contract tests on two cores
  // the longest took 57 s, too close to a one-minute limit.
  testTimeout: 120_000,
  hookTimeout: 240_000,
  // What a journey polls for comes from the server and a React render: vitest's 1 s default was
  // too little on a machine loaded by three stacks and their Chromiums (a count of requests in the
  // panel's tab came after it).
  expect: { poll: { timeout: 15_000 } },
};

/**
 * A contract test asserts what the API does, not how fast: beside the content journeys one of
 * them (100 concurrent booking requests and 100 decisions) took 5.6 s, past vitest's 5 s default.
 */
const CONTRACT_TIMEOUT_MS = 20_000;

/**
 * Every test runs in one group, three files at a time: the content journeys (one test file; its
 * project's name sorts first, so it starts at once and keeps its worker) on one, and the
 * contract, unit and server tests two at a time on the others, then the panel's journeys, the
 * visitor journeys and the self-hosted journey (RunOrder, below). vitest's default is one worker
 * fewer than the CPUs, which on this 2-core machine ran one file at a time.
 *
 * The content journeys are the run's longest path: they change the site and wait for each
 * rebuild, one after another, on the stack of their own (test/e2e/global-setup.ts). The project
 * tests took ≈ 440 s of their ≈ 580 s and then left a core idle; the visitor journeys, which only
 * read, have a stack of their own, so they take that core instead of a second group after the
 * content journeys (there they took ≈ 130 s, a third of it with a core idle on waits).
 * The project tests run at a lower priority (test/background.ts): beside contract files at one
 * priority the journeys' rebuilds slowed to 15–58 s and three timed out, where with the contract
 * files at nice 10 they took 11–31 s and all passed (the tests use nice 5: at 10 some project
 * tests ran past their time on a machine loaded by other runs). The self-hosted journey and the
 * visitor journeys keep the journeys' priority: they have pages to wait for.
 */
const FIRST_GROUP = { maxWorkers: 3, sequence: { groupOrder: 0 } };

/**
 * The projects that start last in their group, after every other file of it has started, in this
 * order: the panel's journeys (one file, on a stack of their own), the visitor journeys (they
 * render pages in Chromium), then the self-hosted journey (it builds a site of its own: photos,
 * every page). Beside the shared stack's first build and the contract tests they slowed both;
 * once the contract and server tests are done they use the core the content journeys leave
 * (those mostly wait for their rebuilds).
 */
const LAST_IN_GROUP = ['e2e-panel', 'e2e-visitor', 'e2e-node'];

/**
 * vitest's order (a group's projects by name, a project's files longest or largest first) with
 * LAST_IN_GROUP moved to the end of their group. A worker takes the next file as it frees, so a
 * file last in the list starts only once the others have all started.
 */
class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => LAST_IN_GROUP.indexOf(f.project.name) + 1;
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: every other file keeps vitest's place.
    return sorted.sort((a, b) => group(a) - group(b) || last(a) - last(b));
  }
}

// Three levels of tests: the worker inside workerd with real D1 and R2, pure rules in Node,
// and end-to-end journeys in Debian's Chromium against the locally served site.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    test: {
      sequence: { sequencer: RunOrder },
      projects: [
        {
          plugins: [
            // A function, so the bindings can name the stand-ins the global setup started.
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_PASSWORD: 'test-password-1',
                  REBUILD_HOOK_URL: '',
                  ...standInBindings(inject),
                },
              },
            })),
          ],
          test: {
            name: 'worker',
            include: ['test/worker/**/*.test.ts'],
            testTimeout: CONTRACT_TIMEOUT_MS,
            // One workerd per test worker, not one per file (~2 s each); the setup file empties
            // D1 and R2 before each file.
            isolate: false,
            setupFiles: ['test/worker/apply-migrations.ts'],
            // Its workerd at a lower priority than the content journeys (test/background.ts).
            globalSetup: [...CONTRACT_STAND_INS, 'test/background.ts'],
            ...FIRST_GROUP,
          },
        },
        // The same worker tests, one table of cases, against the self-hosted Node server over
        // real HTTP (SQLite file, media folder): `cloudflare:test` is test/node/cloudflare-test.ts.
        {
          resolve: { alias: { 'cloudflare:test': path.join(import.meta.dirname, 'test/node/cloudflare-test.ts') } },
          test: {
            name: 'node-api',
            include: ['test/worker/**/*.test.ts'],
            testTimeout: CONTRACT_TIMEOUT_MS,
            environment: 'node',
            // The server and the worker's code load once per test worker, not once per file
            // (~0.8 s each); each file still gets a server and DATA_DIR of its own.
            isolate: false,
            setupFiles: ['test/in-background.ts', 'test/node/file-server.ts'],
            globalSetup: CONTRACT_STAND_INS,
            ...FIRST_GROUP,
          },
        },
        {
          // Pure functions: one worker for every file, not a fresh one per file (~0.8 s each).
          test: {
            name: 'unit',
            include: ['test/unit/**/*.test.ts'],
            environment: 'node',
            isolate: false,
            // Beside the journeys' builds a property test of a thousand stays took 5.8 s, past the 5 s default.
            testTimeout: 20_000,
            setupFiles: ['test/in-background.ts'],
            ...FIRST_GROUP,
          },
        },
        // The self-hosted server as a whole (real SQLite file, media folder, local stand-ins for
        // the Bot API and SMTP), started in the test process. Each file starts and stops its own
        // servers, so the files share their test worker (its modules load once, not per file).
        {
          test: {
            name: 'node-server',
            include: ['test/node-server/**/*.test.ts'],
            environment: 'node',
            isolate: false,
            // Starting a real wrangler dev and three builds took 16 s alone and over 30 s beside the journeys.
            testTimeout: 60_000,
            setupFiles: ['test/in-background.ts'],
            ...FIRST_GROUP,
          },
        },
        // End-to-end on three stacks (test/e2e/global-setup.ts). On one, the journeys that change
        // content and wait for the rebuild (e2e-content, below), one at a time so none sees
        // another's change, beside the contract tests and the self-hosted target. On another,
        // the visitor journeys, which only read, once the project tests are done (RunOrder); on
        // the third, the panel's journeys that never wait for a rebuild (e2e-panel).
        // (Content journeys two at a time, each on a stack of its own, were tried: every rebuild
        // and page load is CPU, so on two cores they took as long and timed out. So were the
        // visitor journeys on a stack of their own from the run's start, beside the project tests:
        // with the full Chromium the run took 1,134 s that way and 1,150 s in a second group, and
        // the content journeys' rebuilds slowed to 25–50 s. With the headless shell and the
        // visitors after the project tests, 796 s in a second group and 654 s this way: docs/development.md.)
        {
          test: {
            ...e2e,
            name: 'e2e-visitor',
            include: [
              'test/e2e/public/**/*.test.ts',
              'test/e2e/local-run.test.ts',
              'test/e2e/no-secrets-in-build.test.ts',
            ],
            ...FIRST_GROUP,
          },
        },
        // The self-hosted target end to end: `npm run serve` as an owner starts it, its own port
        // and data, so it sees none of the content journeys' changes; it runs last in the first
        // group, beside the content journeys' end. (Its test refuses to start when a server left
        // on its port by a run cut short answers there.)
        {
          test: {
            name: 'e2e-node',
            include: ['test/e2e/node/**/*.test.ts'],
            environment: 'node',
            testTimeout: 60_000,
            hookTimeout: 330_000,
            ...FIRST_GROUP,
          },
        },
        {
          test: {
            ...e2e,
            name: 'e2e-content',
            include: ['test/e2e/content-journeys.test.ts'],
            ...FIRST_GROUP,
          },
        },
        // The panel's journeys that never wait for a rebuild, on a third stack, once the project
        // tests are done: beside the visitor journeys and the content journeys' second half.
        {
          test: {
            ...e2e,
            name: 'e2e-panel',
            include: ['test/e2e/panel-journeys.test.ts'],
            ...FIRST_GROUP,
          },
        },
      ],
    },
  };
});
