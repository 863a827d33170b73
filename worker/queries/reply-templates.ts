import type { IsoDate } from '../../schema/dates.ts';
import { guestPageUrl, renderTemplate } from '../../schema/guest-page.ts';
import {
  DEFAULT_REPLY_TEMPLATES,
  replyTemplatesSchema,
  takesGuestOffAvito,
  type ReplyTemplates,
} from '../../schema/reply-templates.ts';
import type { FilledTemplate } from '../../schema/threads.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { siteRecord } from './site-state.ts';

type DbEnv = { DB: DatabasePort };

// Kept in site_state, not in settings: settings are public (GET /api/settings, the built site),
// and the owner's answers to guests are not the public's business.
const record = siteRecord('replyTemplates', replyTemplatesSchema);

/** The owner's templates and automatic answer; a new site's defaults until the first save. */
export const readReplyTemplates = async (env: DbEnv): Promise<ReplyTemplates> =>
  (await record.read(env)) ?? DEFAULT_REPLY_TEMPLATES;
export const saveReplyTemplates = (env: DbEnv, value: ReplyTemplates): Promise<void> => record.save(env, value);

/** What a template is filled with for a thread's booking: as the guests' e-mails are. */
export type ThreadStay = { name: string; cabinName: string; checkIn: IsoDate; checkOut: IsoDate; guestToken: string };

export async function threadStay(env: DbEnv, bookingId: number): Promise<ThreadStay | undefined> {
  const row = await env.DB.prepare(
    `select b.name, c.name as cabin_name, b.check_in, b.check_out, b.guest_token
     from bookings b join cabins c on c.id = b.cabin_id where b.id = ?1`,
  )
    .bind(bookingId)
    .first<{ name: string; cabin_name: string; check_in: IsoDate; check_out: IsoDate; guest_token: string | null }>();
  if (!row?.guest_token) return undefined;
  return {
    name: row.name,
    cabinName: row.cabin_name,
    checkIn: row.check_in,
    checkOut: row.check_out,
    guestToken: row.guest_token,
  };
}

/**
 * The templates filled for a thread: with its booking's facts where it has one (a placeholder of a
 * thread with no booking is left out of the text), and in an Avito chat only those that keep the
 * guest on Avito.
 */
export async function templatesForThread(
  env: DbEnv,
  thread: { channel: string; bookingId?: number },
  origin: string | undefined,
): Promise<FilledTemplate[]> {
  const [{ templates }, stay] = await Promise.all([
    readReplyTemplates(env),
    thread.bookingId === undefined ? undefined : threadStay(env, thread.bookingId),
  ]);
  return templates
    .filter((t) => thread.channel !== 'avito' || !takesGuestOffAvito(t.body))
    .map((t) => ({ name: t.name, text: fillReply(t.body, stay, origin) }));
}

/** A template's text for a stay: the e-mails' placeholders, the link to the guest's page. */
export function fillReply(body: string, stay: ThreadStay | undefined, origin: string | undefined): string {
  if (!stay)
    return body
      .replace(/\{[^{}\s]{1,20}\}/g, '')
      .replace(/[ \t]{2,}/g, ' ')
      .trim();
  return renderTemplate({ subject: '', body }, { ...stay, link: origin ? guestPageUrl(origin, stay.guestToken) : '' })
    .text;
}
