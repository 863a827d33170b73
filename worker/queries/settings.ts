import { sql, type SQL } from 'drizzle-orm';
import { settings } from '../../schema/tables.ts';
import { resolveSettings, type Settings, type SettingsUpdate, type StoredSettings } from '../../schema/settings.ts';
import { extractMapSrc } from '../../schema/map.ts';
import type { StayCharges } from '../../schema/payment-options.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };
const NESTED = 'contactInfo.';

export async function readStoredSettings(env: DbEnv): Promise<StoredSettings> {
  return storedSettingsFrom(await settingsQuery(env));
}

/** The settings' rows, not yet read: for a batch (getSettings is resolveSettings(storedSettingsFrom(rows))). */
export const settingsQuery = (env: DbEnv, where?: SQL) => getDb(env).select().from(settings).where(where);

/** The settings' rows as stored settings; a value that is not JSON is left out. */
export function storedSettingsFrom(rows: { key: string; value: string }[]): StoredSettings {
  const top: Record<string, unknown> = {};
  const contactInfo: Record<string, unknown> = {};
  for (const { key, value } of rows) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    if (key.startsWith(NESTED)) contactInfo[key.slice(NESTED.length)] = parsed;
    else top[key] = parsed;
  }
  return { ...top, contactInfo } as StoredSettings;
}

/** Everything, as the admin panel edits it (the map code exactly as typed). */
export async function getSettings(env: DbEnv): Promise<Settings> {
  return resolveSettings(await readStoredSettings(env));
}

/** The charges every total carries beyond the nights: the cleaning fee and the tourist tax. */
export const chargesOf = (s: Pick<Settings, 'cleaningFee' | 'touristTax'>): StayCharges => ({
  cleaningFee: s.cleaningFee,
  touristTax: s.touristTax,
});

export type PublicSettings = Settings & { mapSrc: string | null };

/** What the public may read: the map code is reduced to a safe frame of an allowed map host. */
export async function getPublicSettings(env: DbEnv): Promise<PublicSettings> {
  const all = await getSettings(env);
  const mapSrc = extractMapSrc(all.mapEmbedCode);
  const mapEmbedCode = mapSrc ? `<iframe src="${mapSrc.replace(/"/g, '&quot;')}"></iframe>` : '';
  return { ...all, mapEmbedCode, contactInfo: { ...all.contactInfo, mapEmbedCode }, mapSrc };
}

/**
 * Merges a partial update: one upsert per given field, all in one atomic batch, so concurrent
 * saves of different fields never overwrite each other.
 */
/**
 * «Продвижение» saved with no IndexNow key keeps the one stored: the server makes it by itself
 * (worker/indexnow/site.ts), maybe after the panel read the settings, and a form sending back the
 * empty key it read must not take away the key file search engines already checked.
 */
const KEEP_INDEXNOW_KEY = sql`json_set(excluded.value, '$.indexNowKey',
  coalesce(nullif(json_extract(excluded.value, '$.indexNowKey'), ''), json_extract(${settings.value}, '$.indexNowKey'), ''))`;

export async function updateSettings(env: DbEnv, patch: SettingsUpdate): Promise<Settings> {
  const { contactInfo, ...top } = patch;
  const entries: [string, unknown][] = [
    ...Object.entries(top),
    ...Object.entries(contactInfo ?? {}).map(([k, v]) => [NESTED + k, v] as [string, unknown]),
  ].filter(([, v]) => v !== undefined);
  const db = getDb(env);
  const statements = entries.map(([key, value]) =>
    db
      .insert(settings)
      .values({ key, value: JSON.stringify(value) })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: key === 'promotion' ? KEEP_INDEXNOW_KEY : sql`excluded.value` },
      }),
  );
  if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return getSettings(env);
}
