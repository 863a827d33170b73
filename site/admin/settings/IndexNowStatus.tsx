// «Продвижение» → IndexNow: whether the site tells Yandex of the pages each publish changed, the
// key file a search engine checks, the last list it took, and the last refusal with what to do.
// Read only: the server sends by itself (worker/indexnow/); the owner has nothing to press here.
// Every state is said in words beside its badge, never by colour alone.
import type { IndexNowStatus as Status } from '../../../schema/indexnow.ts';
import { plural } from '../../../schema/format.ts';
import { call, client } from '../client.ts';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

const when = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

/** «1 адрес», «3 адреса», «12 адресов». */
export const addresses = (n: number): string => `${n} ${plural(n, ['адрес', 'адреса', 'адресов'])}`;

export function IndexNowStatus() {
  const { state, reload } = useLoad(() => call(client().admin.indexnow.$get()));
  return (
    <section className="group indexnow" aria-labelledby="indexnow-title">
      <h3 className="group__title" id="indexnow-title">
        IndexNow: быстрое обновление в Яндексе
      </h3>
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && <IndexNowDetails status={state.data} />}
    </section>
  );
}

export function IndexNowDetails({ status }: { status: Status }) {
  return (
    <>
      <p className="hint">
        После каждой публикации сайт сам сообщает Яндексу, какие страницы появились, изменились или пропали, — робот
        приходит за ними быстрее. Отправляются только изменённые страницы.
      </p>
      <p className="indexnow__state" data-indexnow-state={status.on ? 'on' : 'off'}>
        {status.on ? (
          <span className="badge badge--success">Включено</span>
        ) : (
          <span className="badge badge--muted">Выключено</span>
        )}{' '}
        {status.on ? 'Изменённые страницы отправляются после публикации.' : status.why}
      </p>
      {status.keyUrl && (
        <dl className="indexnow__facts">
          <dt>Файл ключа</dt>
          <dd>
            <a href={status.keyUrl} target="_blank" rel="noopener noreferrer">
              {status.keyUrl}
            </a>
          </dd>
          <dt>Последняя отправка</dt>
          <dd>
            {status.lastSentAt ? `${when(status.lastSentAt)}, ${addresses(status.lastUrls ?? 0)}` : 'ещё не было'}
          </dd>
          {status.pending > 0 && (
            <>
              <dt>Ждут отправки</dt>
              <dd>{addresses(status.pending)}</dd>
            </>
          )}
        </dl>
      )}
      {status.error && (
        <div className="alert alert--warning" role="status">
          <p>
            <strong>Яндекс не принял последний список.</strong> {status.error}
          </p>
          <p>
            {status.pending > 0
              ? 'Сайт попробует отправить список ещё раз сам.'
              : 'Когда причина будет устранена, следующая публикация отправится сама.'}
          </p>
        </div>
      )}
    </>
  );
}
