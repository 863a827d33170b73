import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { standInBindings } from './test/stand-in-bindings.ts';

// Every site a test builds (each stack, each server test) copies the photos another has already
// made instead of making them again (scripts/lib/image-pool.ts); set here, so every test process
// and the servers they start inherit it.
process.env.SITE_IMAGE_POOL ??= path.join(import.meta.dirname, 'node_modules/.cache/astro-image-pool');

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
};

/**
 * A contract test asserts what the API does, not how fast: beside the content journeys one of
 * them (100 concurrent booking requests and 100 decisions) took 5.6 s, past vitest's 5 s default.
 */
const CONTRACT_TIMEOUT_MS = 20_000;

/**
 * The contract, unit and server tests two files at a time, and beside them the content journeys
 * (one test file; its project's name sorts first, so it starts at once and keeps its worker).
 * The journeys mostly wait for rebuilds; the other two workers use the CPU they leave. vitest's
 * default is one worker fewer than the CPUs, which on this 2-core machine ran one file at a time.
 * The self-hosted journey is in this group too, started after every other file of it (RunOrder):
 * the contract and server tests took ≈ 450 s of the content journeys' ≈ 830 s, and left a core
 * idle for the rest, where the self-hosted journey (≈ 120 s) fits; in the second group it shared
 * two cores with the visitor journeys. (Four workers, with the self-hosted journey started at
 * once, were tried: the builds of the server tests then ran past their time on two cores.)
 * The project tests run at a lower priority (test/background.ts): the journeys are this group's
 * longest path, and beside contract files at one priority their rebuilds slowed to 15–58 s and
 * three timed out, where with the contract files at nice 10 they took 11–31 s and all passed
 * (the tests use nice 5: at 10 some project tests ran past their time on a machine loaded by
 * other runs). The self-hosted journey keeps the journeys' priority: it has a build to wait for.
 */
const FIRST_GROUP = { maxWorkers: 3, sequence: { groupOrder: 0 } };
/**
 * The visitor journeys, two files at a time. Every project of a group names the same maxWorkers:
 * a project with one worker and isolation on is run alone after all the groups (vitest's
 * "sequential" group).
 */
const SECOND_GROUP = { maxWorkers: 2, sequence: { groupOrder: 1 } };

/**
 * The projects that start last in their group, after every other file of it has started: the
 * self-hosted journey builds a site of its own (photos, every page), which beside the shared
 * stack's first build and the contract tests slowed both; once the contract and server tests are
 * done it uses the core the content journeys leave (they mostly wait for their rebuilds).
 */
const LAST_IN_GROUP = new Set(['e2e-node']);

/**
 * vitest's order (a group's projects by name, a project's files longest or largest first) with
 * LAST_IN_GROUP moved to the end of their group. A worker takes the next file as it frees, so a
 * file last in the list starts only once the others have all started.
 */
class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => Number(LAST_IN_GROUP.has(f.project.name));
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
        // End-to-end on one shared server (test/e2e/global-setup.ts): first the journeys that
        // change content and wait for the rebuild (e2e-content, below), one at a time so none sees
        // another's change, beside the contract tests and the self-hosted target; then the visitor
        // journeys, which only read, two files at a time. (Content journeys two at a time, each
        // on a stack of its own, were tried: every rebuild and page load is CPU, so on two cores
        // they took as long and timed out. So were the visitor journeys on a stack of their own
        // beside the content journeys: on the same code the run took 1,134 s that way and 1,150 s
        // this way, but the content journeys' rebuilds slowed to 25–50 s and three timed out.)
        {
          test: {
            ...e2e,
            name: 'e2e-visitor',
            include: [
              'test/e2e/public/**/*.test.ts',
              'test/e2e/local-run.test.ts',
              'test/e2e/no-secrets-in-build.test.ts',
            ],
            ...SECOND_GROUP,
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
      ],
    },
  };
});
