// The visitor's choice about Yandex Metrika, written into every public page when the owner set a
// counter (site/components/MetrikaConsent.astro), right after the banner it drives. 152-ФЗ:
// nothing of Yandex loads before «Согласен», not even a connection. With «Согласен» (now or on an
// earlier page) the counter is queued at once and its tag loaded once the page has loaded, so it
// never competes with the page's own first paint. Kept short: it is in every page's first bytes.
// The build writes in the counter, the tag's address and the storage keys (esbuild's define).
declare const METRIKA_ID: number;
declare const METRIKA_TAG: string;
declare const CONSENT_KEY: string;
declare const RETURN_KEY: string;

type Ym = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number };
const w = window as unknown as {
  ym?: Ym;
  dataLayer?: unknown[];
  /** What site/lib/visit.ts calls at each goal; there only once the visitor agreed. */
  kaspiyGoal?: (name: string, purchase?: unknown) => void;
};
const banner = document.currentScript!.previousElementSibling as HTMLElement;

const stored = (): string | null => {
  try {
    return localStorage.getItem(CONSENT_KEY);
  } catch {
    return null;
  }
};

function start() {
  if (w.ym) return;
  // ЮKassa sends the guest back with their booking's token in the address: it leaves the address
  // bar (kept for this tab, where the booking card finds it) before Metrika could read the address.
  const q = new URLSearchParams(location.search);
  const token = q.get('token');
  if (token) {
    try {
      sessionStorage.setItem(RETURN_KEY, JSON.stringify({ booking: q.get('booking'), token }));
    } catch {}
    q.delete('token');
    const rest = q.toString();
    history.replaceState(history.state, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  // A page reached from a guest's own page (its logo, «На главную») has that page, token and all,
  // as its referrer: Metrika is given the site's address instead (init's `referrer`).
  let referrer = document.referrer;
  try {
    const from = new URL(referrer);
    if (from.origin === location.origin && (from.pathname.startsWith('/b/') || from.searchParams.has('token')))
      referrer = `${from.origin}/`;
  } catch {}
  // Yandex's own snippet, in short: calls queue until the tag takes them.
  const ym: Ym = (...args) => {
    (ym.a ||= []).push(args);
  };
  ym.l = Date.now();
  w.ym = ym;
  w.dataLayer ||= [];
  ym(METRIKA_ID, 'init', {
    ecommerce: 'dataLayer',
    clickmap: true,
    trackLinks: true,
    accurateTrackBounce: true,
    referrer,
  });
  w.kaspiyGoal = (name, purchase) => {
    w.ym!(METRIKA_ID, 'reachGoal', name);
    if (purchase) w.dataLayer!.push({ ecommerce: { currencyCode: 'RUB', purchase } });
  };
  const load = () => {
    const s = document.createElement('script');
    s.async = true;
    s.src = METRIKA_TAG;
    document.head.appendChild(s);
  };
  if (document.readyState === 'complete') load();
  else addEventListener('load', load);
}

/** Forgets Metrika's cookies (`_ym_uid` and the others) once the visitor has said no. */
function dropCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]!.trim();
    if (!name.startsWith('_ym')) continue;
    for (const domain of ['', `;domain=${location.hostname}`, `;domain=.${location.hostname}`]) {
      // biome-ignore lint/suspicious/noDocumentCookie: Safari and Firefox have no Cookie Store API
      document.cookie = `${name}=;path=/;max-age=0${domain}`;
    }
  }
}

function ask() {
  banner.hidden = false;
}

banner.addEventListener('click', (e) => {
  const answer = (e.target as HTMLElement).closest('button')?.value;
  if (!answer) return;
  try {
    localStorage.setItem(CONSENT_KEY, answer);
  } catch {}
  banner.hidden = true;
  if (answer === 'yes') start();
  else {
    dropCookies();
    // A counter already running on this page stops with it.
    if (w.ym) location.reload();
  }
});

// «Изменить выбор о Метрике» on /privacy asks again.
for (const b of document.querySelectorAll<HTMLButtonElement>('[data-metrika-change]'))
  b.addEventListener('click', () => {
    ask();
    banner.querySelector('button')?.focus();
  });

const choice = stored();
if (choice === 'yes') start();
else if (choice !== 'no') ask();
