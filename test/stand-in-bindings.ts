// The bindings that point the app at the stand-ins the projects' global setup started, the same on
// both runtimes of the API contract tests: the worker in workerd (vitest.config.ts) and the
// self-hosted server (test/node/cloudflare-test.ts).

type Provided = {
  maxApiUrl: string;
  telegramApiUrl: string;
  smsApiUrl: string;
  indexNowApiUrl: string;
  avito: { apiUrl: string };
};

/** `inject` is the runtime's own: vitest's, or the one the Workers pool hands its options. */
export const standInBindings = (inject: <K extends keyof Provided>(key: K) => Provided[K]) => ({
  MAX_API_URL: inject('maxApiUrl'),
  TELEGRAM_API_URL: inject('telegramApiUrl'),
  SMS_API_URL: inject('smsApiUrl'),
  // A test whose SITE_URL is https turns IndexNow on: its lists go to the stand-in, never to Yandex.
  INDEXNOW_URL: `${inject('indexNowApiUrl')}/indexnow`,
  AVITO_API_URL: inject('avito').apiUrl,
  // Feeds from stand-ins/feed-server.ts on 127.0.0.1, as `npm start` allows.
  ALLOW_LOOPBACK_FEEDS: '1',
});
