// Phrases built from numbers: the catalogue's count lines, the pager line, the photo counter.
import type { PageRange } from './pager.ts';
import { NBSP, plural, type PluralForms } from '../../schema/format.ts';

/** «объект» after «из» is in the genitive: из 1 объекта, из 2 объектов, из 15 объектов. */
export const OBJECTS_GENITIVE: PluralForms = ['объекта', 'объектов', 'объектов'];

/** «Показано 1-12 из 15 объектов». */
export function rangeText({ from, to, total }: PageRange): string {
  return `Показано ${from}-${to} из ${total}${NBSP}${plural(total, OBJECTS_GENITIVE)}`;
}

/** The catalogue's count of available objects: «Доступно 15 объектов», «Доступен 1 объект», «Доступны 2 объекта». */
export function availableText(total: number): string {
  const verb = plural(total, ['Доступен', 'Доступны', 'Доступно']);
  return `${verb} ${total}${NBSP}${plural(total, ['объект', 'объекта', 'объектов'])}`;
}

/** «Страница 2 из 5». */
export function pageOfText(page: number, pages: number): string {
  return `Страница ${page} из ${pages}`;
}

/** The photo viewer's counter: «3 / 7». */
export function counterText(index: number, count: number): string {
  return `${index + 1} / ${count}`;
}

/** Text cut for a meta description: at most `max` characters, at a word boundary, with «…». */
export function metaDescription(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** «до 4 гостей», «до 1 гостя», «до 21 гостя»: the genitive after «до». */
export function upToGuests(n: number): string {
  return `до ${n}${NBSP}${plural(n, ['гостя', 'гостей', 'гостей'])}`;
}
