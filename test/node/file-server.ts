// A setup file of the node-api project: each test file gets a server of its own, on an empty
// DATA_DIR, started before the file's own code runs (it may read `env` at its top level) and
// stopped after its last test (test/node/cloudflare-test.ts).
import { afterAll } from 'vitest';
import { startFileServer, stopFileServer } from './cloudflare-test.ts';

await startFileServer();
afterAll(stopFileServer);
