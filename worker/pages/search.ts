import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import {
  countOf,
  FORMS,
  formatChildren,
  formatGuests,
  formatLineAmount,
  formatNights,
  formatPrice,
  formatStayDates,
  plural,
} from '../../schema/format.ts';
import { escapeHtml } from '../../schema/html.ts';
import { SEARCH_MARKERS as M } from '../../schema/search-page.ts';
import { SEARCH_PAGE_SIZE, searchQuerySchema, type SearchAnswer } from '../../schema/search.ts';
import type { AppEnv } from '../env.ts';
import { searchStays } from '../queries/search.ts';

/**
 * GET /search?checkIn=…&checkOut=…&guests=…: the results page, in one round trip. The build
 * made the page's shell and one card per active cabin (site/pages/shell/); this fills the shell
 * with the visitor's query and the cards of the cabins free for it, priced for the stay. Live:
 * a night taken or a cabin hidden shows at once, with no rebuild. Only HTML is put in, so the
 * shell's CSP hashes stay true.
 */
export async function searchPage(c: Context<AppEnv>): Promise<Response> {
  const shell = await c.env.ASSETS.fetch(new URL('/shell/search', c.req.url));
  if (!shell.ok) return c.notFound();
  const page = await shell.text();
  const query = new URL(c.req.url).searchParams;
  const typed = {
    checkIn: query.get('checkIn') ?? '',
    checkOut: query.get('checkOut') ?? '',
    guests: query.get('guests') ?? '2',
    childrenAges: query.get('childrenAges') ?? '',
    pets: query.get('pets') ?? '',
  };
  const fill = (values: Record<keyof typeof M, string>, status: 200 | 400) =>
    new Response(
      Object.entries(values).reduce((out, [key, value]) => out.replaceAll(M[key as keyof typeof M], value), page),
      {
        status,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': status === 200 ? 'public, max-age=60' : 'no-store',
          'x-robots-tag': 'noindex',
        },
      },
    );
  const attr = (v: string) => escapeHtml(v.slice(0, 40));

  // The page with only the form: nothing asked yet, or a query typed by hand that makes no sense.
  const parsed = searchQuerySchema.safeParse({
    ...typed,
    childrenAges: typed.childrenAges || undefined,
    pets: typed.pets || undefined,
  });
  if (!parsed.success) {
    const asked = query.has('checkIn') || query.has('checkOut');
    const message = parsed.error.issues[0]?.message ?? 'Проверьте даты и число гостей';
    return fill(
      {
        ...typed,
        checkIn: attr(typed.checkIn),
        checkOut: attr(typed.checkOut),
        guests: attr(typed.guests),
        childrenAges: attr(typed.childrenAges),
        pets: typed.pets === '1' ? 'checked' : '',
        title: 'Поиск по датам',
        heading: 'Поиск по датам',
        error: asked ? await str(html`<p class="error-text" role="alert">${message}</p>`) : '',
        results: asked
          ? ''
          : await str(
              html`<p class="muted">Укажите даты заезда и выезда и число гостей — покажем всё, что свободно.</p>`,
            ),
        stayPrice: '',
        stayQuery: '',
      },
      asked ? 400 : 200,
    );
  }

  const q = parsed.data;
  const answer = await searchStays(c.env, q);
  const pages = Math.max(1, Math.ceil(answer.results.length / SEARCH_PAGE_SIZE));
  const pageNo = Math.min(pages, Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1));
  const shown = answer.results.slice((pageNo - 1) * SEARCH_PAGE_SIZE, pageNo * SEARCH_PAGE_SIZE);
  const cards = await Promise.all(shown.map((r, i) => card(c, r, q, i === 0)));
  const dates = formatStayDates(q.checkIn, q.checkOut);
  return fill(
    {
      checkIn: q.checkIn,
      checkOut: q.checkOut,
      guests: String(q.guests),
      childrenAges: (q.childrenAges ?? []).join(', '),
      pets: q.pets ? 'checked' : '',
      title: escapeHtml(`Свободно ${dates} · ${who(q)}`),
      heading: 'Свободно на ваши даты',
      error: '',
      results: await str(html`
        <p class="catalogue__range">${summary(answer, dates)}</p>
        ${cards.length > 0 ? html`<div class="grid">${raw(cards.join(''))}</div>` : html`<div class="empty"><h2>На эти даты всё занято</h2><p class="muted">Попробуйте сдвинуть даты — ниже ближайшие свободные — или напишите нам: подскажем, что освободится.</p><a class="btn btn--primary" href="/contacts">Контакты</a></div>`}
        ${pages > 1 ? pager(q, pageNo, pages) : ''}
        ${answer.others.length > 0 && pageNo === 1 ? others(answer, q) : ''}`),
      stayPrice: '',
      stayQuery: '',
    },
    200,
  );
}

const str = async (h: ReturnType<typeof html>) => (await h).toString();

/** Who the search is for: the adults, the children with their ages, pets. */
type Party = { guests: number; childrenAges?: number[]; pets?: boolean };
/** «2 гостя, 2 ребёнка (возраст: 3, 9), с животными». */
const who = (q: Party) =>
  [formatGuests(q.guests), formatChildren(q.childrenAges ?? []), q.pets ? 'с животными' : '']
    .filter(Boolean)
    .join(', ');

const stayQuery = (s: { checkIn: string; checkOut: string }, q: Party) => {
  const params = new URLSearchParams({ checkIn: s.checkIn, checkOut: s.checkOut, guests: String(q.guests) });
  if (q.childrenAges?.length) params.set('childrenAges', q.childrenAges.join(','));
  if (q.pets) params.set('pets', '1');
  return `?${params}`;
};
/** A cabin's page opened at its booking card, the stay and the party picked there (site/islands/BookingCard.tsx). */
const stayLink = (id: number, s: { checkIn: string; checkOut: string }, q: Party) =>
  `/cabin/${id}${stayQuery(s, q)}#booking`;

/** One prebuilt card, with the stay's price and dates; the first loads its photo at once. */
async function card(
  c: Context<AppEnv>,
  r: SearchAnswer['results'][number],
  q: { checkIn: string; checkOut: string } & Party,
  first: boolean,
) {
  const res = await c.env.ASSETS.fetch(new URL(`/shell/cards/${r.id}`, c.req.url));
  // A cabin added since the last build has no card yet: its name and price still show.
  // Astro writes every page as a document (a doctype and its CSP <meta>): only the card is kept.
  let body = res.ok
    ? (await res.text()).replace(/^[\s\S]*?(?=<article\b)/, '')
    : await str(
        html`<article class="card card--link cabin-card"><div class="card__body"><p class="price">${raw(M.stayPrice)}</p><h2 class="card__title"><a class="stretched" href="/cabin/${r.id}${raw(M.stayQuery)}">${r.name}</a></h2></div></article>`,
      );
  if (first) body = body.replace('loading="lazy"', 'loading="eager" fetchpriority="high"');
  return body
    .replace(
      M.stayPrice,
      await str(
        html`${formatNights(r.nights)} · ${formatPrice(r.total)}${extras(r.lines)}${r.pets ? html` <small class="price__pets">можно с животными</small>` : ''}`,
      ),
    )
    .replace(`/cabin/${r.id}${M.stayQuery}`, escapeHtml(stayLink(r.id, q, q)));
}

/** The lines beyond the nights inside a stay's total, named as on the booking card: «вкл. уборка 1 500 ₽, скидка … −2 200 ₽». */
function extras(lines: SearchAnswer['results'][number]['lines']) {
  const named = lines.filter((l) => l.kind !== 'nights');
  return named.length === 0
    ? ''
    : html` <small class="price__extras">вкл. ${named.map((l) => `${l.label.toLocaleLowerCase('ru-RU')} ${formatLineAmount(l.amount)}`).join(', ')}</small>`;
}

function summary(answer: SearchAnswer, dates: string) {
  const n = answer.results.length;
  const free =
    n === 0 ? 'Свободных нет' : `${plural(n, ['Свободен', 'Свободно', 'Свободно'])} ${countOf(n, FORMS.objects)}`;
  return `${free} на ${dates}, ${formatNights(answer.nights)} · ${who(answer)}`;
}

function pager(q: { checkIn: string; checkOut: string } & Party, page: number, pages: number) {
  const href = (n: number) => `/search${stayQuery(q, q)}${n > 1 ? `&page=${n}` : ''}`;
  return html`<nav class="pager" aria-label="Страницы результатов">
    ${page > 1 ? html`<a class="btn btn--secondary pager__step" href="${href(page - 1)}" rel="prev">Назад</a>` : ''}
    ${page < pages ? html`<a class="btn btn--secondary pager__step" href="${href(page + 1)}" rel="next">Далее</a>` : ''}
  </nav>
  <p class="pager__status">Страница ${page} из ${pages}</p>`;
}

/** Why a cabin is not among the results, in the visitor's words. */
const WHY: Record<SearchAnswer['others'][number]['reason'], (o: SearchAnswer['others'][number]) => string> = {
  busy: () => 'Занято в эти даты',
  minNights: (o) => `В эти даты — от ${formatNights(o.minNights)}`,
  closed: () => 'В эти даты — другие дни заезда и выезда или срок проживания',
};

function others(answer: SearchAnswer, q: Party) {
  return html`<h2>Не подходят на эти даты</h2>
    <ul class="search-others">
      ${answer.others.map(
        (o) => html`<li>
          <span class="search-others__name">${o.name}</span>
          <span class="search-others__why">${WHY[o.reason](o)}</span>
          ${
            o.nearest
              ? html`<a href="${stayLink(o.id, o.nearest, q)}">Ближайшие свободные: ${formatStayDates(o.nearest.checkIn, o.nearest.checkOut)} · ${formatPrice(o.nearest.total)}</a>`
              : html`<a href="/cabin/${o.id}">Посмотреть свободные даты</a>`
          }
        </li>`,
      )}
    </ul>`;
}
