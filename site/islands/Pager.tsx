// The pager of the reviews list: the same look and texts as the catalogue's (Pager.astro),
// with buttons instead of links.
import { pageOfText } from '../lib/texts.ts';
import { Icon } from './Icon.tsx';
import { iconChevronLeft, iconChevronRight } from '../components/icons.ts';

interface Props {
  page: number;
  pages: number;
  window: number[];
  onPage: (page: number) => void;
  label: string;
}

export function Pager({ page, pages, window, onPage, label }: Props) {
  return (
    <>
      {pages > 1 && (
        <nav className="pager" aria-label={label}>
          <button
            type="button"
            className="btn btn--secondary pager__step"
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          >
            <Icon svg={iconChevronLeft} />
            Назад
          </button>
          <ol className="pager__pages">
            {window.map((n) => (
              <li key={n}>
                <button
                  type="button"
                  className="pager__page"
                  aria-current={n === page ? 'page' : undefined}
                  aria-label={`Страница ${n}`}
                  onClick={() => onPage(n)}
                >
                  {n}
                </button>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="btn btn--secondary pager__step"
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
          >
            Далее
            <Icon svg={iconChevronRight} />
          </button>
        </nav>
      )}
      <p className="pager__status">{pageOfText(page, pages)}</p>
    </>
  );
}
