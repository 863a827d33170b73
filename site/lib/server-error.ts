/**
 * Whether the server's `{ error }` is worth showing as it is: a Russian message saying what to do
 * (a mistake to fix, the dates taken, the database busy, the disk full). A bare 500's «Внутренняя
 * ошибка сервера» is not: the form's own «try again» helps more.
 */
export function serverSaysWhy(status: number, error: string | undefined | null): error is string {
  return !!error && status !== 500;
}

/** What a public form shows after the server refused a submit: the server's reason, else the form's own. */
export function serverErrorText(status: number, error: string | undefined, fallback: string): string {
  return serverSaysWhy(status, error) ? error : fallback;
}
