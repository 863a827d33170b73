// Mounts the search form's date picker (SearchDates) when the visitor first reaches for the form.
// Loaded on demand by the form's few inline lines, so a page with the form carries neither React
// nor Astro's island runtime until then (the home page and the catalogue stay within 14 KB).
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import SearchDates from './SearchDates.tsx';

export function mountSearchDates(form: HTMLFormElement): void {
  const host = document.createElement('div');
  host.style.display = 'contents';
  // appendChild, not append: the project's types also hold the Workers' own Element.append (HTMLRewriter).
  form.appendChild(host);
  createRoot(host).render(createElement(SearchDates, { form }));
}
