// «С чего начать»: the owner's first hour, on the panel's first screen until every step
// is done or the owner hides it. Each step says whether it is done, as the server reads it from the
// data, and opens the place to do it; «Убрать демо-данные» takes the demo away in one step, after a
// confirmation that says what goes, keeping whatever the owner made or changed.
import { CHECKLIST, type ChecklistAnswer, type DemoSummary } from '../../schema/onboarding.ts';
import { countOf, type PluralForms } from '../../schema/format.ts';
import { call, client } from './client.ts';
import { useConfirm } from './ui/Confirm.tsx';
import { Icon } from './ui/Icon.tsx';
import { useNotify } from './ui/Notice.tsx';
import { useFailure } from './ui/useFailure.ts';
import { usePublish } from './ui/PublishStatus.tsx';
import { useLoad } from './ui/useLoad.tsx';

const CABINS: PluralForms = ['домик', 'домика', 'домиков'];
const REVIEWS: PluralForms = ['отзыв', 'отзыва', 'отзывов'];
const REQUESTS: PluralForms = ['заявка', 'заявки', 'заявок'];
const PHOTOS: PluralForms = ['фото', 'фото', 'фото'];

/** «3 домика, 6 отзывов, 9 заявок, 24 фото, контакты и номер в реестре демо-версии». */
export function demoWhat(d: DemoSummary): string {
  const parts = [
    d.cabins ? countOf(d.cabins, CABINS) : '',
    d.reviews ? countOf(d.reviews, REVIEWS) : '',
    d.bookings ? countOf(d.bookings, REQUESTS) : '',
    d.photos ? countOf(d.photos, PHOTOS) : '',
    d.settings ? 'контакты, карта и номер в реестре демо-версии' : '',
  ].filter(Boolean);
  return parts.join(', ');
}

export function Checklist() {
  const { state, setData } = useLoad(() => call(client().admin.checklist.$get()));
  const confirm = useConfirm();
  const notify = useNotify();
  const failed = useFailure();
  const published = usePublish();
  if (state.status !== 'loaded') return null;
  const list: ChecklistAnswer = state.data;
  const left = list.items.filter((i) => !i.done).length;
  if (list.dismissed || (left === 0 && !list.demo)) return null;

  async function dismiss() {
    try {
      setData((d) => ({ ...d, dismissed: true }));
      await call(client().admin.checklist.$put({ json: { dismissed: true } }));
    } catch (err) {
      failed(err, 'Не удалось скрыть список');
    }
  }
  async function removeDemo(demo: DemoSummary) {
    const ok = await confirm({
      title: 'Убрать демо-данные?',
      text: `Уйдут: ${demoWhat(demo)}. То, что вы добавили или изменили сами, и домики с заявками настоящих гостей останутся. Сайт опубликуется без демо-данных.`,
      confirmLabel: 'Убрать демо-данные',
      danger: true,
    });
    if (!ok) return;
    try {
      await call(client().admin.demo.$delete());
      published();
      notify.success('Демо-данные убраны: заполните сайт своими домиками и контактами');
      setData((d) => ({ ...d, demo: null }));
    } catch (err) {
      failed(err, 'Не удалось убрать демо-данные');
    }
  }

  const done = new Map(list.items.map((i) => [i.key, i.done]));
  return (
    <section className="group checklist" aria-labelledby="checklist-title">
      <div className="checklist__head">
        <h2 className="group__title" id="checklist-title">
          С чего начать
        </h2>
        <p className="hint">{left === 0 ? 'Всё готово' : `Осталось шагов: ${left} из ${list.items.length}`}</p>
      </div>
      <ol className="checklist__items">
        {CHECKLIST.map((item) => {
          const ok = done.get(item.key) ?? false;
          return (
            <li key={item.key} className={`checklist__item${ok ? ' checklist__item--done' : ''}`}>
              <Icon name={ok ? 'check' : 'clock'} />
              <span>
                <a href={`#${item.tab}`}>{item.label}</a>
                <span className="visually-hidden">{ok ? ': сделано' : ': не сделано'}</span>
                <small className="hint">{item.hint}</small>
              </span>
            </li>
          );
        })}
      </ol>
      <div className="checklist__actions">
        {list.demo && (
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void removeDemo(list.demo!)}>
            <Icon name="trash" /> Убрать демо-данные
          </button>
        )}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void dismiss()}>
          Скрыть список
        </button>
      </div>
    </section>
  );
}
