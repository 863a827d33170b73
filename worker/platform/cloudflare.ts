import app from '../index.ts';
import type { Bindings } from '../env.ts';
import { jobsAt, runSchedule } from '../scheduled.ts';
import { deployHook } from './deploy-hook.ts';
import { mailApiMailer, type MailApiEnv } from './mail-api.ts';
import { publicReadMemory } from './public-read-memory.ts';

export type { AppType } from '../index.ts';

type WorkerEnv = Env & MailApiEnv & { ADMIN_PASSWORD?: string; REBUILD_HOOK_URL?: string; REBUILD_HOOK_TOKEN?: string };

/**
 * The Cloudflare Workers entry: D1, R2 and the assets binding are the ports as they are; the
 * rebuild port is the deploy hook; e-mail goes through an HTTP mail API when MAIL_API_KEY is set
 * (a Worker cannot speak SMTP). Cloudflare's own header tells the visitor's address.
 */
export function workerBindings(env: WorkerEnv): Bindings {
  return { ...env, REBUILD: deployHook(env), MAILER: mailApiMailer(env), SUBREQUESTS_PER_RUN: SCHEDULE_SUBREQUESTS };
}

/**
 * Outbound requests the schedule's Avito work may make in one Cron run: a Worker on the Free plan
 * may make 50 (feeds and messages take some too); a larger base is read over more minutes.
 */
const SCHEDULE_SUBREQUESTS = 45;

/** This isolate's kept answers to public reads (public-read-memory.ts). */
const publicReads = publicReadMemory();

export default {
  fetch(req, env, ctx) {
    const bindings = workerBindings(env);
    return publicReads(
      req,
      bindings,
      (work) => ctx.waitUntil(work),
      (env) => app.fetch(req, env, ctx),
    );
  },
  /** The Cron Trigger (wrangler.toml), every minute: Avito sent to, calendars and Avito read, old personal data erased (worker/scheduled.ts). */
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runSchedule(workerBindings(env), jobsAt(controller.scheduledTime)).finally(publicReads.forgetStamp));
  },
} satisfies ExportedHandler<WorkerEnv>;
