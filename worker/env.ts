import type { LiveSession, SessionUser } from './queries/sessions.ts';
import type {
  ClientAddressPort,
  DatabasePort,
  FeedFetchPort,
  MailerPort,
  MediaPort,
  RebuildPort,
  SitePort,
} from './platform/ports.ts';

/**
 * What every route may use: the storage ports (filled by each platform entry in
 * worker/platform/) plus plain settings and secrets.
 */
export type Bindings = {
  DB: DatabasePort;
  MEDIA: MediaPort;
  ASSETS: SitePort;
  /**
   * Told the data stamp a read's batch saw with its rows (worker/queries/kept-reads.ts): the
   * Worker's kept public reads keep a new search's answer under it, so a new search costs D1
   * one round trip, not a stamp read before it (worker/platform/public-read-memory.ts).
   */
  DATA_STAMP_SEEN?: (stamp: string | null) => void;
  /** How to ask for a rebuild; absent where nothing rebuilds (a direct call in a unit test). */
  REBUILD?: RebuildPort;
  /** The visitor's address; absent, Cloudflare's own header is read. */
  CLIENT_ADDRESS?: ClientAddressPort;
  /** Production: the first admin's password, used once to create the account. */
  ADMIN_PASSWORD?: string;
  /** Workers: the deploy hook called after public-content writes (a secret). */
  REBUILD_HOOK_URL?: string;
  /** Workers: sent as a bearer token to the hook when set (the GitHub Actions alternative). */
  REBUILD_HOOK_TOKEN?: string;
  /** Owner notifications by a Telegram bot (secrets); both needed. */
  TELEGRAM_BOT_TOKEN?: string;
  TELEGRAM_CHAT_ID?: string;
  /** The Bot API's address; tests point it at a local stand-in. */
  TELEGRAM_API_URL?: string;
  /** MAX's Bot API address (default https://platform-api2.max.ru); tests point it at a local stand-in. The bot itself is set in «Настройки». */
  MAX_API_URL?: string;
  /** The SMS gateway's address (default https://sms.ru); tests and `npm start` point it at a local stand-in. The key itself is set in «Настройки». */
  SMS_API_URL?: string;
  /**
   * E-mail to the owner and to guests: self-hosted from SMTP_URL, else (and on Workers) from the
   * HTTP mail API below.
   */
  MAILER?: MailerPort;
  /** The HTTP mail API (worker/platform/mail-api.ts; secrets): its key, the sender, the owner's address, its URL (Resend's by default). */
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  MAIL_TO?: string;
  MAIL_API_URL?: string;
  /**
   * The public address, for links in notifications and in the guests' e-mails (their booking's
   * page): without it a message sent on a request uses the request's address, and the schedule's
   * reminders and review requests wait for it.
   */
  SITE_URL?: string;
  /** '1' lets calendar feeds be fetched from this machine (local runs and tests only). */
  ALLOW_LOOPBACK_FEEDS?: string;
  /** '1' serves the readable API reference at /api/reference (`npm start` only; 404 elsewhere). */
  API_REFERENCE?: string;
  /** Prepayment through ЮKassa: the shop's id and secret key (secrets), both needed. */
  YOOKASSA_SHOP_ID?: string;
  YOOKASSA_SECRET_KEY?: string;
  /** ЮKassa's API, https://api.yookassa.ru/v3 by default; tests and `npm start` point it at a stand-in. */
  YOOKASSA_API_URL?: string;
  /**
   * Outbound requests one scheduled run may make (Workers: 50 on the Free plan, so the Cloudflare
   * entry sets a budget under it); absent (the Node server), no limit.
   */
  SUBREQUESTS_PER_RUN?: number;
  /** Avito's API, https://api.avito.ru by default; tests and `npm start` point it at a stand-in. */
  AVITO_API_URL?: string;
  /** Where IndexNow lists go (https://yandex.com/indexnow by default); tests and `npm start` point it at a stand-in. */
  INDEXNOW_URL?: string;
  /** How a calendar feed is fetched; absent (Workers), the platform's fetch. The Node server checks DNS answers. */
  FEED_FETCH?: FeedFetchPort;
};

/**
 * What a request learns on its way: `signedIn`, `user` and `session` once requireAdmin let a
 * session through; `guardBody`, set by it for a manager on a route with fields only the owner
 * changes, is asked by the JSON validator about the validated body; `auditFailed`, set by a route
 * that refused a wrong password or code, has «Журнал» record the attempt (worker/middleware/audit.ts).
 */
export type Variables = {
  signedIn?: true;
  user?: SessionUser;
  session?: LiveSession;
  guardBody?: (body: unknown) => Response | undefined;
  auditFailed?: true;
};

export type AppEnv = { Bindings: Bindings; Variables: Variables };
