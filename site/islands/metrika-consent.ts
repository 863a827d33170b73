// The visitor's choice about Yandex Metrika, on every public page once the owner set a counter
// (docs/features.md «Продвижение»). A module of its own, loaded once the page has loaded, like the
// site's own counting (site/layouts/Base.astro): a page carries one line for it, and nothing of it
// competes with the page's first paint. 152-ФЗ: nothing of Yandex loads before «Согласен», not
// even a connection. A visitor who has not chosen gets the banner, a fixed overlay at the bottom
// that moves nothing on the page; after «Согласен» (now or on an earlier page) the counter starts
// and takes the goals the page queued (site/lib/visit.ts).
import { METRIKA_CONSENT_KEY, PAYMENT_RETURN_KEY } from '../../schema/metrika.ts';

type Ym = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number };
type Goal = [name: string, purchase?: unknown];
const w = window as unknown as {
  ym?: Ym;
  dataLayer?: unknown[];
  kaspiyGoal?: (name: string, purchase?: unknown) => void;
  kaspiyGoals?: Goal[];
};
/** The loader's line: the counter and the tag's address, as the build wrote them. */
const config = document.querySelector<HTMLScriptElement>('script[data-metrika-counter]')?.dataset;
const counter = Number(config?.metrikaCounter);
const tag = config?.metrikaTag ?? '';

const stored = (): string | null => {
  try {
    return localStorage.getItem(METRIKA_CONSENT_KEY);
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
      sessionStorage.setItem(PAYMENT_RETURN_KEY, JSON.stringify({ booking: q.get('booking'), token }));
    } catch {}
    q.delete('token');
    const rest = q.toString();
    history.replaceState(history.state, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  // A page reached from a guest's own page (its logo) has that page, token and all, as its
  // referrer: Metrika is given the site's address instead (init's `referrer`).
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
  ym(counter, 'init', {
    ecommerce: 'dataLayer',
    clickmap: true,
    trackLinks: true,
    accurateTrackBounce: true,
    referrer,
  });
  w.kaspiyGoal = (name, purchase) => {
    w.ym!(counter, 'reachGoal', name);
    if (purchase) w.dataLayer!.push({ ecommerce: { currencyCode: 'RUB', purchase } });
  };
  for (const [name, purchase] of w.kaspiyGoals?.splice(0) ?? []) w.kaspiyGoal(name, purchase);
  const script = document.createElement('script');
  script.async = true;
  script.src = tag;
  document.head.appendChild(script);
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

/**
 * The banner, made here rather than in the page: its words and styles would be in every page's
 * first bytes. Styled through the CSSOM (the pages' CSP allows no new <style>); the buttons are
 * the site's own, alike, so neither answer is easier to give.
 */
function banner(): HTMLElement {
  const box = document.createElement('aside');
  box.className = 'consent';
  box.setAttribute('aria-label', 'Яндекс Метрика');
  Object.assign(box.style, {
    position: 'fixed',
    left: '.5rem',
    right: '.5rem',
    bottom: '.5rem',
    zIndex: '45',
    maxWidth: '40rem',
    margin: '0 auto',
    padding: '.75rem 1rem',
    background: 'var(--c-surface)',
    border: '1px solid var(--c-line)',
    borderRadius: 'var(--r-lg)',
    boxShadow: '0 4px 24px #0e334033',
    fontSize: 'var(--fs-sm)',
  });
  const text = document.createElement('p');
  text.style.margin = '0 0 .75rem';
  text.textContent =
    'Мы хотели бы использовать Яндекс Метрику, чтобы видеть, что на сайте удобно, а что нет. Она запоминает, какие страницы вы открываете, получает данные браузера и устройства и сохраняет файлы cookie. ';
  const policy = document.createElement('a');
  policy.href = '/privacy#metrika';
  policy.textContent = 'Политика конфиденциальности';
  text.appendChild(policy);
  const buttons = document.createElement('div');
  Object.assign(buttons.style, { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '.5rem' });
  for (const [value, label] of [
    ['yes', 'Согласен'],
    ['no', 'Отказаться'],
  ]) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn btn--secondary';
    b.value = value!;
    b.textContent = label!;
    buttons.appendChild(b);
  }
  box.appendChild(text);
  box.appendChild(buttons);
  box.addEventListener('click', (e) => {
    const answer = (e.target as HTMLElement).closest('button')?.value;
    if (!answer) return;
    try {
      localStorage.setItem(METRIKA_CONSENT_KEY, answer);
    } catch {}
    box.remove();
    document.documentElement.style.scrollPaddingBottom = '';
    document.body.style.paddingBottom = '';
    if (answer === 'yes') start();
    else {
      w.kaspiyGoals = [];
      dropCookies();
      // A counter already running on this page stops with it.
      if (w.ym) location.reload();
    }
  });
  return box;
}

function ask(): HTMLElement {
  const shown = document.querySelector<HTMLElement>('aside.consent') ?? document.body.appendChild(banner());
  // Nothing stays under the banner (WCAG 2.4.11): the page can scroll past its end by the banner's
  // height, and a control focused with the keyboard comes into view above it. Only the page's end
  // grows: nothing on it moves.
  const room = `${shown.offsetHeight + 16}px`;
  document.documentElement.style.scrollPaddingBottom = room;
  document.body.style.paddingBottom = room;
  return shown;
}

if (counter > 0 && tag) {
  // «Изменить выбор о Метрике» on /privacy asks again.
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-metrika-change]'))
    b.addEventListener('click', () => ask().querySelector('button')?.focus());
  const choice = stored();
  if (choice === 'yes') start();
  else if (choice !== 'no') ask();
}
