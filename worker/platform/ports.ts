/**
 * What the app needs from the platform it runs on. Each entry point fills these (Workers:
 * D1, R2 and the assets binding; Node: SQLite, a media folder and the built site on disk);
 * routes and queries use them and never ask which runtime they are on.
 *
 * The database port is the part of D1's interface that drizzle's D1 driver and our raw SQL use,
 * so one drizzle dialect and one set of migrations serve both targets.
 */
export type DatabasePort = Pick<D1Database, 'prepare' | 'batch'>;

/**
 * The database stayed busy past the wait (SQLite: another connection held its lock); nothing of
 * the statement or batch was written. The API answers 503 with Retry-After.
 */
export class DatabaseBusyError extends Error {
  constructor(options?: ErrorOptions) {
    super('D1_ERROR: database is locked', options);
    this.name = 'DatabaseBusyError';
  }
}

/**
 * Whether an error means "try again shortly", not a fault: our SQLite's busy error, or D1's
 * overload (its requests queue inside one Durable Object; when the queue is too long D1 refuses).
 */
export function isDatabaseBusy(err: unknown): boolean {
  // drizzle wraps the driver's error (DrizzleQueryError), so the causes are followed.
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseBusyError || /D1 DB is overloaded/i.test(e.message)) return true;
  }
  return false;
}

/** SQLite's primary result code for «database or disk is full» (extended codes keep it in the low byte). */
const SQLITE_FULL = 13;
/**
 * The same, as text: what a child process (the site build) printed, or an error that lost its
 * code on the way: Node's ENOSPC/EDQUOT, SQLite's message, D1's size limit.
 */
const FULL_TEXT =
  /\bENOSPC\b|no space left on device|\bEDQUOT\b|disk quota exceeded|database or disk is full|\bSQLITE_FULL\b|maximum (?:DB|database) size/i;

/**
 * Whether an error means the storage has no room left: the disk under the self-hosted DATA_DIR
 * (ENOSPC, a quota: EDQUOT; SQLite's SQLITE_FULL), or a D1 database at its size limit. The API
 * answers 507 with a plain message (nothing of a statement or batch was kept); a failed build
 * tells the owner what to free.
 */
export function isStorageFull(err: unknown): boolean {
  // drizzle and our SQLite port wrap the driver's error: the causes are followed.
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, errcode } = e as { code?: unknown; errcode?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    if (typeof errcode === 'number' && (errcode & 0xff) === SQLITE_FULL) return true;
    if (FULL_TEXT.test(e.message)) return true;
  }
  return false;
}

/** Photos by key: the part of R2's interface the app uses. */
export type MediaPort = Pick<R2Bucket, 'get' | 'put' | 'delete' | 'list'>;

/** The built site: the admin shell, the 404 page and build.json are read through it. */
export type SitePort = { fetch(input: URL | string | Request): Promise<Response> };

/** The builder's own account of itself, where it can give one (shown in the admin panel). */
export type BuilderStatus = {
  state: string;
  error?: string | null;
  /** The cause in plain Russian, when the builder knows one the owner can fix (the disk full). */
  cause?: string | null;
  /** The last build could not render only the changed pages and built every page instead: why. */
  fallback?: string | null;
  /** The site is live and whole; its quick compressed twins are still being made best (self-hosted). */
  compressing?: boolean;
};

/** Asks for a rebuild of the public site after a write, and tells how the builder is doing. */
export type RebuildPort = {
  request(contentVersion: number): Promise<void>;
  status(): Promise<BuilderStatus | null>;
};

/** The visitor's address for rate limits, as this platform can tell it without forgery. */
export type ClientAddressPort = (req: Request) => string | undefined;

/**
 * Sends an e-mail (the self-hosted server fills it from SMTP_URL with nodemailer, Workers from an
 * HTTP mail API, worker/platform/mail-api.ts): to the owner, or to `to` (the messages to a guest).
 * `reachesOwner: false`: it knows no owner's address, so it carries only the guests' mail.
 */
export type MailerPort = {
  /**
   * `key` names the message for good (its outbox row): a try again after an answer that never
   * came carries the same key, so an API that takes one (Resend's Idempotency-Key) sends it once,
   * and SMTP gives it one Message-ID that mail clients show once.
   */
  send(message: { subject: string; text: string; to?: string; key?: string }): Promise<void>;
  reachesOwner?: boolean;
};

/**
 * Fetches one hop of an imported calendar (redirect: manual; the caller checks every hop and
 * keeps the size and time limits). Absent (Workers), the platform's fetch is used. The Node
 * server's resolves the host first and connects only to an address it checked; it rejects with
 * FeedAddressRefused when the name answers inside the network (or on loopback, unless allowed).
 */
export type FeedFetchPort = (
  url: URL,
  init: { signal: AbortSignal; headers: Record<string, string>; allowLoopback: boolean },
) => Promise<Response>;

/** The feed's host resolved to an address inside the network: nothing was sent to it. */
export class FeedAddressRefused extends Error {
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, inside the network`);
    this.name = 'FeedAddressRefused';
  }
}
