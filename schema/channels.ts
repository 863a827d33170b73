// One calendar across every channel (docs/api.md «Channels»): Avito through its API for
// short-term rent, iCal feeds, and the conflicts between them. Plain zod, shared by the API and
// the panel.
import { z } from 'zod';
import type { IsoDate } from './dates.ts';
import { MSG } from './messages.ts';

/** The platforms read through an API, by the name stored in channel_stays.channel. */
export const CHANNEL_LABELS = { avito: 'Авито' } as const;
export type ChannelName = keyof typeof CHANNEL_LABELS;

/** Avito's API; env AVITO_API_URL overrides it (tests and `npm start` point it at a stand-in). */
export const AVITO_API_DEFAULT = 'https://api.avito.ru';
/** How far ahead busy nights and prices go to Avito, and Avito's bookings are read. */
export const CHANNEL_HORIZON_DAYS = 365;
/** A change to a linked cabin's busy nights reaches Avito within this (the schedule's tick). */
export const CHANNEL_PUSH_EVERY_MS = 60_000;
/** Avito's bookings and the iCal feeds are read this often (and on «Синхронизировать сейчас»). */
export const CHANNEL_PULL_EVERY_MS = 5 * 60_000;
/** One call to Avito may take this long in the schedule; a slow Avito never holds a page. */
export const AVITO_TIMEOUT_MS = 15_000;
/**
 * The pause before the next try after failures in a row (a failing push or pull is retried on the
 * schedule's tick once its pause is over): 1, 2, 4 … minutes, at most 30.
 */
export function channelBackoffMs(failures: number, retryAfterMs?: number): number {
  const pause = Math.min(30 * 60_000, 60_000 * 2 ** Math.max(0, failures - 1));
  return Math.max(pause, retryAfterMs ?? 0);
}

/** A whole number Avito gives (a profile, a listing): the panel sends it as a number. */
const avitoNumber = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(Number.MAX_SAFE_INTEGER, message);

/** What Avito gives a professional account for its API («Для профессионалов» → API). */
export const avitoConnectSchema = z.strictObject({
  clientId: z
    .string({ error: MSG.avitoClientIdRequired })
    .trim()
    .min(1, MSG.avitoClientIdRequired)
    .max(200, MSG.tooLong)
    .regex(/^[\x21-\x7e]+$/, MSG.avitoKeyInvalid),
  clientSecret: z
    .string({ error: MSG.avitoSecretRequired })
    .trim()
    .min(1, MSG.avitoSecretRequired)
    .max(500, MSG.tooLong)
    .regex(/^[\x21-\x7e]+$/, MSG.avitoKeyInvalid),
  userId: avitoNumber(MSG.avitoUserIdInvalid),
});
export type AvitoConnect = z.infer<typeof avitoConnectSchema>;

/** A cabin's listing on Avito (its number in the listing's address); null unlinks it. */
export const cabinChannelsSchema = z.strictObject({ avitoItemId: avitoNumber(MSG.avitoItemIdInvalid).nullable() });

/** The owner's names of these forms' fields, for a refused value. */
export function channelFieldName(path: readonly PropertyKey[]): string | undefined {
  return (
    {
      clientId: 'Client ID',
      clientSecret: 'Client Secret',
      userId: 'Номер профиля',
      avitoItemId: 'Номер объявления',
    } as Record<string, string>
  )[String(path[0])];
}

/** GET /admin/channels: every cabin against every channel, never the secret. */
export type ChannelsAnswer = {
  avito: {
    connected: boolean;
    userId: number | null;
    clientId: string | null;
    secretEnding: string | null;
    error?: string;
    /**
     * Avito's chats in «Сообщения», once connected: `refused` is Avito's own words refusing the
     * Messenger API to the account (its plan; the calendar's exchange goes on), `error` why reading
     * or answering failed last (tried again), `webhook` whether Avito posts new messages here.
     */
    chats?: { refused?: string; error?: string; webhook: boolean };
  };
  cabins: {
    id: number;
    name: string;
    active: boolean;
    avitoItemId: number | null;
    avito: { lastPushAt?: string; lastPullAt?: string; error?: string };
    feeds: {
      index: number;
      name: string;
      lastSyncAt?: string;
      lastSuccessAt?: string;
      error?: string;
      emptyHeld: boolean;
    }[];
    exportUrl: string | null;
  }[];
};

/** What one cabin's exchange with a channel came to, for «Синхронизировать сейчас». */
export type ChannelResult = {
  cabinId: number;
  channel: string;
  name: string;
  ok: boolean;
  error: string | null;
  detail?: string;
};

/** One iCal feed's answer to «Синхронизировать сейчас» (and to a recheck of a cabin's feeds). */
export type FeedResult = {
  id: number;
  cabinId: number;
  name: string;
  ok: boolean;
  events: number;
  error: string | null;
  notModified?: boolean;
};

/** Nights claimed by two stays: ours and a channel's, or two channels'. */
export type ConflictStay = {
  kind: 'booking' | 'hold' | 'feed' | 'channel';
  label: string;
  start: IsoDate;
  end: IsoDate;
  bookingId?: number;
  guests?: number;
  price?: number;
};
export type Conflict = { cabinId: number; cabinName: string; start: IsoDate; end: IsoDate; stays: ConflictStay[] };
