import { sql } from 'drizzle-orm';
import type { BeaconKind } from '../../schema/visits.ts';
import {
  BEACONS_PER_MINUTE,
  OTHER_PATH,
  OTHER_SOURCE,
  VISIT_PATHS_PER_SOURCE_DAY,
  VISIT_SOURCES_PER_DAY,
} from '../../schema/visits.ts';
import { todayInMoscow } from '../../schema/dates.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { hit } from './rate-limit.ts';

type DbEnv = { DB: DatabasePort };

/** The kind a dropped beacon (bad, or over its sender's limit) is counted under. */
export const DROPPED_KIND = 'dropped';
/** The kind the first page of a visit is counted under (its later pages are `view`). */
export const VISIT_KIND = 'visit';
type StoredKind = BeaconKind | typeof DROPPED_KIND | typeof VISIT_KIND;

/**
 * Counts one beacon on its day's row. A source new to the day past VISIT_SOURCES_PER_DAY counts
 * as «другие», a page new to its source past VISIT_PATHS_PER_SOURCE_DAY as «*», and a cabin that
 * does not exist as none: whatever is sent, a day holds a bounded number of rows, and every beacon
 * is still counted somewhere. One statement, so two beacons at once cannot both pass a cap.
 */
export async function countBeacon(
  env: DbEnv,
  b: { day: string; kind: StoredKind; source: string; path: string; cabinId?: number },
): Promise<void> {
  const cabinId = b.cabinId ?? 0;
  await getDb(env).run(sql`
    INSERT INTO visit_counts (day, kind, source, path, cabin_id, count)
    SELECT ${b.day}, ${b.kind}, s.source,
      CASE WHEN EXISTS (SELECT 1 FROM visit_counts WHERE day = ${b.day} AND source = s.source AND path = ${b.path})
             OR (SELECT count(DISTINCT path) FROM visit_counts WHERE day = ${b.day} AND source = s.source) < ${VISIT_PATHS_PER_SOURCE_DAY}
           THEN ${b.path} ELSE ${OTHER_PATH} END,
      CASE WHEN ${cabinId} > 0 AND EXISTS (SELECT 1 FROM cabins WHERE id = ${cabinId}) THEN ${cabinId} ELSE 0 END,
      1
    FROM (
      SELECT CASE WHEN EXISTS (SELECT 1 FROM visit_counts WHERE day = ${b.day} AND source = ${b.source})
                    OR (SELECT count(DISTINCT source) FROM visit_counts WHERE day = ${b.day}) < ${VISIT_SOURCES_PER_DAY}
                  THEN ${b.source} ELSE ${OTHER_SOURCE} END AS source
    ) AS s
    WHERE true
    ON CONFLICT (day, kind, source, path, cabin_id) DO UPDATE SET count = count + 1
  `);
}

/**
 * Whether a sender may count one more beacon this minute. The sender is known only by a hash of
 * their address with the day's salt; the salt is replaced on the day's first beacon, so no
 * address can be found again from what is stored.
 */
export async function beaconAllowed(env: DbEnv, address: string): Promise<boolean> {
  const salt = await daySalt(env, todayInMoscow());
  const key = `beacon:${(await sha256Hex(`${salt}|${address}`)).slice(0, 32)}`;
  return (await hit(env, key, 60_000)) <= BEACONS_PER_MINUTE;
}

async function daySalt(env: DbEnv, day: string): Promise<string> {
  const db = getDb(env);
  const read = async () =>
    (await db.all<{ salt: string }>(sql`SELECT salt FROM visit_salt WHERE day = ${day}`))[0]?.salt;
  const kept = await read();
  if (kept) return kept;
  const salt = crypto.randomUUID();
  // A new day: yesterday's salt goes, and with it the limits counted by it.
  await db.run(sql`DELETE FROM visit_salt WHERE day <> ${day}`);
  await db.run(sql`INSERT INTO visit_salt (day, salt) VALUES (${day}, ${salt}) ON CONFLICT (day) DO NOTHING`);
  await db.run(sql`DELETE FROM rate_limits WHERE key LIKE 'beacon:%' AND window_start < ${now() - 60_000}`);
  // Two first beacons at once: both read the one salt that was kept.
  return (await read()) ?? salt;
}
