import { useState } from 'react';
import { RATING_MAX } from '../../../schema/constants.ts';
import type { Review } from '../../../schema/tables.ts';
import { plural } from '../../../schema/format.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { usePublish } from '../ui/PublishStatus.tsx';
import { Segmented } from '../ui/Segmented.tsx';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';

type Filter = 'all' | 'pending' | 'approved';

const dateFmt = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });
const formatDate = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateFmt.format(d);
};

/** «Отзывы»: every review, newest first; the ones awaiting moderation a click away. */
export function ReviewsTab() {
  const { state, reload, setData } = useLoad(() => call(client().reviews.$get()));
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState<number | null>(null);
  const confirm = useConfirm();
  const notify = useNotify();
  const published = usePublish();

  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;

  const reviews = state.data;
  const pending = reviews.filter((r) => !r.approved).length;
  const shown = reviews.filter((r) => filter === 'all' || (filter === 'pending' ? !r.approved : r.approved));

  async function moderate(review: Review) {
    setBusy(review.id);
    try {
      const updated = await call(
        client().reviews[':id'].$put({ param: { id: String(review.id) }, json: { approved: !review.approved } }),
      );
      setData((list) => list.map((r) => (r.id === review.id ? { ...r, ...updated } : r)));
      published();
      notify.success(
        updated.approved
          ? `Отзыв «${review.name}» одобрен и появится на сайте`
          : `Отзыв «${review.name}» скрыт с сайта`,
      );
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      console.error(err);
      notify.error(describeError(err, 'Ошибка при модерации отзыва'));
    } finally {
      setBusy(null);
    }
  }

  async function remove(review: Review) {
    const ok = await confirm({
      title: 'Удалить отзыв?',
      text: 'Вы уверены, что хотите удалить этот отзыв?',
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!ok) return;
    setBusy(review.id);
    try {
      await call(client().reviews[':id'].$delete({ param: { id: String(review.id) } }));
      setData((list) => list.filter((r) => r.id !== review.id));
      published();
      notify.success(`Отзыв «${review.name}» удалён`);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      console.error(err);
      notify.error(describeError(err, 'Ошибка при удалении отзыва'));
    } finally {
      setBusy(null);
    }
  }

  const filters: { id: Filter; label: string; count: number }[] = [
    { id: 'all', label: 'Все', count: reviews.length },
    { id: 'pending', label: 'На модерации', count: pending },
    { id: 'approved', label: 'Одобренные', count: reviews.length - pending },
  ];

  return (
    <section className="tab">
      {pending > 0 && filter !== 'pending' && (
        <p className="alert alert--warning reviews__pending">
          {pendingLine(pending)}{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => setFilter('pending')}>
            Показать
          </button>
        </p>
      )}
      <Segmented label="Какие отзывы показать" options={filters} value={filter} onChange={setFilter} />
      {shown.length === 0 ? (
        <p className="empty">{filter === 'pending' ? 'Все отзывы проверены — новых нет.' : 'Отзывов пока нет.'}</p>
      ) : (
        <ul className="review-list">
          {shown.map((r) => (
            <li key={r.id} className={`review ${r.approved ? '' : 'review--pending'}`}>
              <article aria-labelledby={`review-${r.id}`}>
                <header className="review__head">
                  <span className="avatar" aria-hidden="true">
                    {r.name.trim().charAt(0).toUpperCase() || '?'}
                  </span>
                  <div className="review__who">
                    <h3 className="review__name" id={`review-${r.id}`}>
                      {r.name}
                    </h3>
                    <p className="review__meta">
                      <a href={`mailto:${r.email}`}>{r.email}</a>
                      <span aria-hidden="true"> · </span>
                      <time dateTime={r.created_at}>{formatDate(r.created_at)}</time>
                    </p>
                  </div>
                  {r.approved ? (
                    <span className="badge badge--success">Одобрен</span>
                  ) : (
                    <span className="badge badge--warning">На модерации</span>
                  )}
                </header>
                <p className="stars" role="img" aria-label={`Оценка ${r.rating} из ${RATING_MAX}`}>
                  {Array.from({ length: RATING_MAX }, (_, i) => (
                    <Icon key={i} name={i < r.rating ? 'star-filled' : 'star-empty'} />
                  ))}
                </p>
                <p className="review__comment">{r.comment}</p>
                <div className="review__actions">
                  <button
                    type="button"
                    className={`btn btn--sm ${r.approved ? 'btn--secondary' : 'btn--primary'}`}
                    onClick={() => void moderate(r)}
                    disabled={busy === r.id}
                  >
                    {r.approved ? 'Скрыть' : 'Одобрить'}
                    <span className="visually-hidden"> отзыв «{r.name}»</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn--danger btn--sm"
                    onClick={() => void remove(r)}
                    disabled={busy === r.id}
                  >
                    <Icon name="trash" /> Удалить<span className="visually-hidden"> отзыв «{r.name}»</span>
                  </button>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function pendingLine(n: number): string {
  return `${n} ${plural(n, ['отзыв ждёт', 'отзыва ждут', 'отзывов ждут'])} модерации.`;
}
