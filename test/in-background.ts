// A setup file of the project tests that run in Node: this test worker, and every server and
// build it starts from now on, run at a lower priority than the content journeys (background.ts).
import { renice } from './background.ts';

renice(process.pid);
