import { z } from 'zod';
import { MSG } from './messages.ts';
import { isIsoDate } from './dates.ts';
import { normalizeCode } from './login.ts';

// The owner's account (docs/api.md «The owner's account»): who signs in, with what
// rights, the second factor and the record of changes. Shared by the server and the panel.

/**
 * The owner may do anything; a manager handles requests, the calendar and reviews, not money or
 * access; a cleaner sees the tasks of their own cabins in «Сегодня» and ticks them, nothing else.
 */
export const ROLES = ['owner', 'manager', 'cleaner'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = { owner: 'Владелец', manager: 'Менеджер', cleaner: 'Уборщик' };
/** The most cabins one cleaner is given (a check on the input, not a business rule). */
export const CLEANER_CABINS_MAX = 500;

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s; one step of drift either way. */
export const TOTP = {
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  window: 1,
  issuer: 'Каспий',
  secretBytes: 20,
} as const;
/** Ten one-time recovery codes, shown once when two-factor sign-in is turned on. */
export const RECOVERY_CODE_COUNT = 10;
/** A session's «last seen» is written at most this often, so reading the panel costs no write. */
export const SESSION_TOUCH_MS = 60_000;
/** The record is kept a year, then the schedule forgets it. */
export const AUDIT_KEPT_DAYS = 365;
export const AUDIT_KEPT_MS = AUDIT_KEPT_DAYS * 24 * 60 * 60_000;
export const AUDIT_PAGE = { default: 50, max: 200 } as const;

/** What an entry of «Журнал» was: the part of the panel, for the «kind» filter. */
export const AUDIT_KINDS = {
  account: 'Аккаунт и вход',
  bookings: 'Заявки',
  calendar: 'Календарь',
  cabins: 'Домики',
  pricing: 'Цены',
  reviews: 'Отзывы',
  settings: 'Настройки',
  payments: 'Оплата',
  channels: 'Площадки',
  notifications: 'Уведомления',
  messages: 'Сообщения',
  site: 'Сайт',
} as const;
export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

const username = z
  .string({ error: MSG.usernameInvalid })
  .trim()
  .min(3, MSG.usernameInvalid)
  .max(50, MSG.usernameInvalid);
const newPassword = z.string({ error: MSG.passwordTooShort }).min(8, MSG.passwordTooShort).max(500, MSG.tooLong);
/** What the owner or a manager types to prove it is them: the password they sign in with. */
export const currentPasswordField = z
  .string({ error: MSG.currentPasswordRequired })
  .min(1, MSG.currentPasswordRequired)
  .max(500, MSG.tooLong);
/** A code from the authenticator app (6 digits) or a recovery code; spaces and dashes are ignored. */
export const codeField = z
  .string({ error: MSG.codeRequired })
  .max(40, MSG.codeWrong)
  .transform(normalizeCode)
  .pipe(z.string().min(1, MSG.codeRequired));

/**
 * POST /api/admin/users: a new person. An owner or a manager comes with a password of their own; a
 * cleaner with the cabins they clean and no password (they sign in by a private link).
 */
export const userCreateSchema = z
  .object({
    username,
    password: newPassword.optional(),
    role: z.enum(ROLES, { error: MSG.roleInvalid }),
    cabinIds: z
      .array(
        z
          .number({ error: MSG.badInput })
          .int(MSG.badInput)
          .positive(MSG.badInput)
          .max(2 ** 31, MSG.badInput),
        {
          error: MSG.badInput,
        },
      )
      .max(CLEANER_CABINS_MAX, MSG.badInput)
      .optional(),
  })
  .superRefine((u, ctx) => {
    if (u.role === 'cleaner') {
      if (!u.cabinIds?.length) ctx.addIssue({ code: 'custom', message: MSG.cleanerCabinsRequired, path: ['cabinIds'] });
      if (u.password !== undefined)
        ctx.addIssue({ code: 'custom', message: MSG.cleanerNoPassword, path: ['password'] });
    } else {
      if (u.password === undefined) ctx.addIssue({ code: 'custom', message: MSG.passwordTooShort, path: ['password'] });
      if (u.cabinIds !== undefined)
        ctx.addIssue({ code: 'custom', message: MSG.cabinsOnlyForCleaner, path: ['cabinIds'] });
    }
  });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** POST /api/admin/2fa/enable: the first code proves the app holds the secret; the password, that it is the account's owner. */
export const twoFactorEnableSchema = z.object({ code: codeField, password: currentPasswordField });
/** POST /api/admin/2fa/disable: a stolen session cookie alone cannot turn it off. */
export const twoFactorCodeSchema = z.object({ code: codeField });
/** POST /api/admin/2fa/recovery-codes: new codes for old, with a code (from the app or a recovery code) and the password. */
export const recoveryCodesSchema = twoFactorEnableSchema;

/** A day of the record's filter, `YYYY-MM-DD` (Moscow). */
const day = z.string().refine(isIsoDate, MSG.dateInvalid);
const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, MSG.badInput)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n <= max, MSG.badInput);

/** GET /api/admin/audit?actor&kind&from&to&before&limit: `before` is the id of the oldest entry already shown. */
export const auditQuerySchema = z
  .object({
    actor: z.string().trim().min(1, MSG.badInput).max(50, MSG.badInput).optional(),
    kind: z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]], { error: MSG.badInput }).optional(),
    from: day.optional(),
    to: day.optional(),
    before: positiveInt(Number.MAX_SAFE_INTEGER).optional(),
    limit: positiveInt(AUDIT_PAGE.max).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, MSG.datesOrder);
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** GET /api/admin/sessions?all=1: the owner sees everyone's sessions. */
export const sessionsQuerySchema = z.object({ all: z.enum(['1', '0'], { error: MSG.badInput }).optional() });

/** What GET /api/admin/users answers for each person: never a hash or a secret. */
export type UserView = {
  id: number;
  username: string;
  role: Role;
  twoFactor: boolean;
  createdAt: number;
  /** A cleaner's cabins (empty for the others). */
  cabinIds: number[];
  /** When a cleaner's sign-in link was made; null when they have none. Never the link itself. */
  linkCreatedAt: number | null;
  /** Where a cleaner's morning list goes: the messengers whose chat they tied (none for the others). */
  messengers: ('telegram' | 'max')[];
};
export type SessionView = {
  id: number;
  username: string;
  userAgent: string;
  ip: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
};
export type AuditEntry = {
  id: number;
  at: number;
  actor: string;
  ip: string;
  action: string;
  kind: AuditKind;
  description: string;
  target: string | null;
  outcome: AuditOutcome;
  before?: unknown;
  after?: unknown;
};
