import { useState } from 'react';
import type { CabinInput } from '../../../schema/cabin-input.ts';
import type { Cabin } from '../../../schema/tables.ts';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { CabinForm, type CabinDraft } from './CabinForm.tsx';
import { CabinInstructions } from './CabinInstructions.tsx';
import { useConfirm } from '../ui/Confirm.tsx';
import { getDraft } from '../ui/drafts.ts';
import { Icon } from '../ui/Icon.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { usePublish } from '../ui/PublishStatus.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

const rub = (n: number) => `${n.toLocaleString('ru-RU')} ₽/ночь`;

type Editing = { cabinId: number | null; restored?: CabinDraft['values'] };

/** «Домики»: every cabin (inactive ones too), with add, edit and delete. */
export function CabinsTab() {
  const { state, reload } = useLoad(() => call(client().admin.cabins.$get()));
  // A draft left by an ended session or a closed page reopens its form.
  const [instructing, setInstructing] = useState<{ id: number; name: string } | null>(null);
  const [editing, setEditing] = useState<Editing | null>(() => {
    const draft = getDraft<CabinDraft>('cabin');
    return draft ? { cabinId: draft.cabinId, restored: draft.values } : null;
  });
  const [deleting, setDeleting] = useState<number | null>(null);
  const confirm = useConfirm();
  const notify = useNotify();
  const published = usePublish();

  async function save(cabinId: number | null, payload: CabinInput) {
    if (cabinId === null) await call(client().cabins.$post({ json: payload }));
    else await call(client().cabins[':id'].$put({ param: { id: String(cabinId) }, json: payload }));
    published();
    void reload(true);
  }

  async function remove(cabin: Cabin) {
    const ok = await confirm({
      title: 'Удалить домик?',
      text: 'Вы уверены, что хотите удалить этот домик?',
      confirmLabel: 'Удалить',
      danger: true,
    });
    if (!ok) return;
    setDeleting(cabin.id);
    try {
      await call(client().cabins[':id'].$delete({ param: { id: String(cabin.id) } }));
      published();
      notify.success(`Домик «${cabin.name}» удалён`);
      await reload(true);
    } catch (err) {
      if (err instanceof SessionEndedError) return;
      console.error(err);
      notify.error(describeError(err, 'Ошибка при удалении домика'));
    } finally {
      setDeleting(null);
    }
  }

  const cabins = state.status === 'loaded' ? state.data : [];
  const editedCabin = editing?.cabinId != null ? cabins.find((c) => c.id === editing.cabinId) : undefined;
  // Wait for the list before opening an edit form, so it starts from the stored cabin.
  const formReady = editing && (editing.cabinId === null || editedCabin || state.status !== 'loading');

  return (
    <section className="tab" aria-labelledby="tab-cabins-count">
      <div className="tab__bar">
        <p className="muted" id="tab-cabins-count">
          {state.status === 'loaded' ? countLine(cabins) : '\u00a0'}
        </p>
        <button type="button" className="btn btn--primary" onClick={() => setEditing({ cabinId: null })}>
          <Icon name="plus" /> Добавить домик
        </button>
      </div>

      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && <LoadError error={state.error} onRetry={() => void reload()} />}
      {state.status === 'loaded' && cabins.length === 0 && (
        <p className="empty">Домиков пока нет. Нажмите «Добавить домик», чтобы создать первый.</p>
      )}
      {state.status === 'loaded' && cabins.length > 0 && (
        <ul className="cabin-list">
          {cabins.map((c) => (
            <li key={c.id} className={`cabin-row ${c.active ? '' : 'cabin-row--inactive'}`}>
              <div className="cabin-row__thumb">
                {c.images[0] ? <img src={c.images[0]} alt="" loading="lazy" decoding="async" /> : <Icon name="image" />}
              </div>
              <div className="cabin-row__body">
                <h3 className="cabin-row__name">{c.name}</h3>
                <p className="cabin-row__price">{rub(c.pricePerNight)}</p>
                {c.weekendPricePerNight != null && (
                  <p className="cabin-row__weekend">В выходные {rub(c.weekendPricePerNight)}</p>
                )}
                <p className="cabin-row__badges">
                  {c.active ? (
                    <span className="badge badge--success">Активен</span>
                  ) : (
                    <span className="badge badge--muted">Неактивен</span>
                  )}
                  {c.featured && <span className="badge badge--accent">Рекомендуемый</span>}
                </p>
              </div>
              <div className="cabin-row__actions">
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  onClick={() => setEditing({ cabinId: c.id })}
                >
                  <Icon name="edit" /> Изменить<span className="visually-hidden"> «{c.name}»</span>
                </button>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  onClick={() => setInstructing({ id: c.id, name: c.name })}
                >
                  Для гостей<span className="visually-hidden"> «{c.name}»</span>
                </button>
                <button
                  type="button"
                  className="btn btn--danger btn--sm"
                  onClick={() => void remove(c)}
                  disabled={deleting === c.id}
                >
                  <Icon name="trash" /> Удалить<span className="visually-hidden"> «{c.name}»</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {instructing && <CabinInstructions cabin={instructing} onClose={() => setInstructing(null)} />}
      {editing && formReady && (
        <CabinForm
          key={editing.cabinId ?? 'new'}
          cabin={editedCabin}
          restored={editing.restored}
          // A draft of a cabin deleted meanwhile saves as a new cabin rather than being lost.
          onSave={(payload) => save(editedCabin ? editedCabin.id : null, payload)}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}

function countLine(cabins: Cabin[]): string {
  const active = cabins.filter((c) => c.active).length;
  return `Всего: ${cabins.length}, на сайте: ${active}`;
}
