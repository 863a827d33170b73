import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import {
  AUDIT_PAGE,
  type AuditEntry,
  type AuditKind,
  type AuditOutcome,
  type AuditQuery,
} from '../../schema/account.ts';
import { addDays, nextDayStartInMoscow, type IsoDate } from '../../schema/dates.ts';
import { auditLog } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { redact } from '../lib/redact.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

export type AuditRecord = {
  actorId: number | null;
  actor: string;
  ip: string;
  action: string;
  kind: AuditKind;
  description: string;
  target?: string | null;
  outcome?: AuditOutcome;
  before?: unknown;
  after?: unknown;
};

/** Writes one entry of «Журнал»; `before` and `after` lose every secret on the way (worker/lib/redact.ts). */
export async function recordAudit(env: DbEnv, entry: AuditRecord): Promise<void> {
  await getDb(env)
    .insert(auditLog)
    .values({
      ...entry,
      at: now(),
      target: entry.target ?? null,
      outcome: entry.outcome ?? 'ok',
      before: entry.before === undefined ? null : redact(entry.before),
      after: entry.after === undefined ? null : redact(entry.after),
    });
}

/** The instant a day begins in Moscow: the next day start after noon (UTC) of the day before. */
function moscowDayStart(day: IsoDate): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return nextDayStartInMoscow(Date.UTC(y, m - 1, d - 1, 12));
}

/** The entries newest first, filtered and paged by the id of the last one already shown. */
export async function listAudit(env: DbEnv, q: AuditQuery): Promise<AuditEntry[]> {
  const where: SQL[] = [];
  if (q.actor) where.push(eq(auditLog.actor, q.actor));
  if (q.kind) where.push(eq(auditLog.kind, q.kind));
  if (q.from) where.push(gte(auditLog.at, moscowDayStart(q.from)));
  if (q.to) where.push(lt(auditLog.at, moscowDayStart(addDays(q.to, 1))));
  if (q.before) where.push(lt(auditLog.id, q.before));
  const rows = await getDb(env)
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(q.limit ?? AUDIT_PAGE.default)
    .all();
  // Redacted again as it is read: entries written before a rule was added keep no secret either.
  return rows.map(({ actorId: _actorId, before, after, ...row }) => ({
    ...row,
    kind: row.kind as AuditKind,
    ...(before === null ? {} : { before: redact(before) }),
    ...(after === null ? {} : { after: redact(after) }),
  }));
}

/** The schedule's upkeep: entries older than `cutoff` (ms) are forgotten; answers how many. */
export async function forgetOldAudit(env: DbEnv, cutoff: number): Promise<number> {
  const rows = await getDb(env).delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return rows.length;
}
