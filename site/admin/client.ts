import { api } from '../lib/api.ts';
import { serverSaysWhy } from '../lib/server-error.ts';

/** The typed client of the same-origin /api (cookies ride along: the session is server-side). */
export const client = () => api();

/** A refused or failed call: `message` is the server's Russian `{ error }` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** The server no longer knows our session: the panel returns to the login form. */
export class SessionEndedError extends ApiError {
  constructor() {
    super(401, 'Сеанс завершён');
    this.name = 'SessionEndedError';
  }
}

export const OFFLINE_MESSAGE = 'Нет связи с сервером. Проверьте интернет и попробуйте ещё раз.';

type Listener = () => void;
const sessionEndListeners = new Set<Listener>();
/** Called whenever any admin call is answered 401. */
export function onSessionEnded(fn: Listener): () => void {
  sessionEndListeners.add(fn);
  return () => sessionEndListeners.delete(fn);
}
/** Tells the panel the server ended the session, and throws SessionEndedError. */
export function sessionEnded(): never {
  for (const fn of sessionEndListeners) fn();
  throw new SessionEndedError();
}

type AnyResponse = { ok: boolean; status: number; statusText: string; json(): Promise<unknown> };
/**
 * The JSON body of the success responses of a typed client call: every response variant but
 * the ones typed with an error status (their `ok` is `false`).
 */
type SuccessBody<R> = R extends { ok: false } ? never : R extends { json(): Promise<infer T> } ? T : never;

async function errorText(res: { status: number; statusText: string; json(): Promise<unknown> }): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === 'string' && body.error ? body.error : `API Error: ${res.status} ${res.statusText}`;
}

/**
 * Runs a typed client call: resolves with its success body, throws ApiError otherwise and
 * SessionEndedError (after telling the session) on 401.
 */
export async function call<R extends AnyResponse>(
  request: Promise<R>,
  opts: { auth?: boolean } = {},
): Promise<SuccessBody<R>> {
  let res: R;
  try {
    res = await request;
  } catch {
    throw new ApiError(0, OFFLINE_MESSAGE);
  }
  if (res.status === 401 && opts.auth !== false) {
    // Read the body so the browser can close the response.
    await res.json().catch(() => null);
    sessionEnded();
  }
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  return (await res.json()) as SuccessBody<R>;
}

/**
 * What to show for a failed action: the SPEC's message, and the server's reason when it adds one
 * (a refusal, the database busy, the disk full: 503 and 507 say what to do; a bare 500 does not).
 */
export function describeError(err: unknown, specMessage: string): string {
  if (
    err instanceof ApiError &&
    err.status !== 0 &&
    serverSaysWhy(err.status, err.message) &&
    !err.message.startsWith('API Error')
  ) {
    return `${specMessage}: ${err.message}`;
  }
  if (err instanceof ApiError && err.status === 0) return `${specMessage}. ${OFFLINE_MESSAGE}`;
  return specMessage;
}
