// An error as the server's log may print it. drizzle's «Failed query» error carries the query's
// parameters in its message and stack: a guest's page token, a phone, an e-mail, whatever the
// query was looking for. The log gets the query and its cause (the database's own error), not them.
import { DrizzleQueryError } from 'drizzle-orm/errors';

/** `err` with every failed query's parameters left out, its cause kept; anything else as it is. */
export function forLog(err: unknown): unknown {
  if (!(err instanceof DrizzleQueryError)) return err;
  const safe = new Error(`Failed query: ${err.query}`, { cause: forLog(err.cause) });
  // The stack starts with the message, parameters and all: only its frames are kept.
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  safe.stack = [`Error: ${safe.message}`, ...frames].join('\n');
  return safe;
}

/** The message of `err` for a log line or a stored reason, without a failed query's parameters. */
export const messageForLog = (err: unknown): string => {
  const safe = forLog(err);
  return safe instanceof Error ? safe.message : String(safe);
};
