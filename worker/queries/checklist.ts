import { count, eq, inArray, isNotNull } from 'drizzle-orm';
import { CHECKLIST, type ChecklistAnswer, type ChecklistKey, type DemoRecord } from '../../schema/onboarding.ts';
import { avitoAccount, cabins, calendarFeeds, settings, siteState } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { demoLeft, demoSummary } from './demo.ts';
import { readMaxBot } from './max-bot.ts';
import { getSettings } from './settings.ts';

type DbEnv = { DB: DatabasePort };
const DISMISSED = 'checklistDismissed';

/** How the owner's account stands, from the account's own queries (the password still the configured one, two-factor on). */
export type AccountFacts = { passwordChanged: boolean; twoFactor: boolean };

/**
 * «С чего начать», each step read from the data: what the owner has made their own. A step is done
 * when the site no longer shows the demo's (or the built-in) value for it; the demo record (schema/
 * onboarding.ts DemoRecord) says what the demo's values were.
 */
export async function readChecklist(env: Bindings, account: AccountFacts): Promise<ChecklistAnswer> {
  const db = getDb(env);
  const [s, stored, demoRow, ownCabins, feeds, avito, max, dismissed, left] = await Promise.all([
    getSettings(env),
    db.select({ key: settings.key }).from(settings),
    db.select().from(siteState).where(eq(siteState.key, 'demo')).get(),
    db.select({ id: cabins.id, images: cabins.images }).from(cabins).where(eq(cabins.active, true)),
    db.select({ n: count() }).from(calendarFeeds),
    db.select({ n: count() }).from(avitoAccount).where(isNotNull(avitoAccount.clientId)),
    readMaxBot(env),
    db.select().from(siteState).where(eq(siteState.key, DISMISSED)).get(),
    demoLeft(env),
  ]);
  const demo = await demoSummary(env, left);
  const demoCabins = new Set(left?.cabins ?? []);
  const record = demoRow ? (JSON.parse(demoRow.value) as DemoRecord) : null;
  const demoValue = (field: string) => record?.settings[field];
  const own = (field: 'phone' | 'email' | 'address' | 'mapEmbedCode' | 'registryNumber') => {
    const value = String(s[field] ?? '').trim();
    return value !== '' && value !== demoValue(field);
  };
  // The demo's own feed, on a demo cabin still as seeded, is not the owner's.
  const demoFeeds = demoCabins.size
    ? await db
        .select({ n: count() })
        .from(calendarFeeds)
        .where(inArray(calendarFeeds.cabinId, [...demoCabins]))
    : [{ n: 0 }];
  const storedKeys = new Set(stored.map((r) => r.key));
  const done: Record<ChecklistKey, boolean> = {
    password: account.passwordChanged,
    twoFactor: account.twoFactor,
    // The place's own phone, e-mail, address and map, not the demo's.
    contacts: own('phone') && own('email') && own('address') && own('mapEmbedCode'),
    // A cabin of the owner's own with a photo (a demo cabin the owner edited counts as theirs).
    cabins: ownCabins.some((c) => c.images.length > 0 && !demoCabins.has(c.id)),
    calendar: feeds[0]!.n - demoFeeds[0]!.n > 0 || avito[0]!.n > 0,
    // The owner chose how guests book: the choice was saved at least once.
    payments: storedKeys.has('bookingMode'),
    alerts:
      (max?.userId ?? null) !== null ||
      Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_CHAT_ID) ||
      Boolean(env.MAILER?.reachesOwner ?? false),
    registry: own('registryNumber'),
  };
  return {
    items: CHECKLIST.map(({ key }) => ({ key, done: done[key] })),
    dismissed: dismissed?.value === 'true',
    demo,
  };
}

export async function setChecklistDismissed(env: DbEnv, dismissed: boolean): Promise<void> {
  await getDb(env)
    .insert(siteState)
    .values({ key: DISMISSED, value: String(dismissed) })
    .onConflictDoUpdate({ target: siteState.key, set: { value: String(dismissed) } });
}
