import { useCallback, useEffect, useRef, useState } from 'react';
import { call, client, describeError, SessionEndedError } from '../client.ts';
import { useConfirm } from '../ui/Confirm.tsx';
import { useNotify } from '../ui/Notice.tsx';
import { PhotoUploader, type ImagesUpdate } from '../ui/PhotoUploader.tsx';
import { usePublish } from '../ui/PublishStatus.tsx';
import { LoadError, Loading, useLoad } from '../ui/useLoad.tsx';

const MAX_GALLERY = 60;

/**
 * «Галерея»: the home page's photos. Every change (upload, order, removal) is saved at once,
 * one save at a time, always sending the latest list.
 */
export function GalleryTab() {
  const { state, reload } = useLoad(() => call(client().admin.settings.$get()).then((s) => s.galleryImages));
  const [images, setImages] = useState<string[] | null>(null);
  const [saveState, setSaveState] = useState<'saved' | 'saving' | 'failed'>('saved');
  const latest = useRef<string[] | null>(null);
  const saving = useRef(false);
  const pending = useRef(false);
  const notify = useNotify();
  const confirm = useConfirm();
  const published = usePublish();

  useEffect(() => {
    if (state.status === 'loaded' && latest.current === null) {
      latest.current = state.data;
      setImages(state.data);
    }
  }, [state]);

  const save = useCallback(async () => {
    if (saving.current) {
      pending.current = true;
      return;
    }
    saving.current = true;
    setSaveState('saving');
    let failed = false;
    do {
      pending.current = false;
      try {
        await call(client().settings.$put({ json: { galleryImages: latest.current ?? [] } }));
        published();
      } catch (err) {
        failed = true;
        if (!(err instanceof SessionEndedError)) {
          console.error(err);
          notify.error(describeError(err, 'Ошибка при сохранении галереи'));
        }
        break;
      }
    } while (pending.current);
    saving.current = false;
    setSaveState(failed ? 'failed' : 'saved');
    if (!failed) notify.success('Галерея сохранена');
  }, [notify, published]);

  const update = useCallback<ImagesUpdate>(
    (fn) => {
      const next = fn(latest.current ?? []);
      latest.current = next;
      setImages(next);
      void save();
    },
    [save],
  );

  const confirmRemove = () =>
    confirm({
      title: 'Удалить фото?',
      text: 'Фото исчезнет из галереи на главной странице.',
      confirmLabel: 'Удалить',
      danger: true,
    });

  if (state.status === 'loading' || (state.status === 'loaded' && images === null)) return <Loading />;
  if (state.status === 'error') return <LoadError error={state.error} onRetry={() => void reload()} />;

  return (
    <section className="tab">
      <p className="muted tab__lead">
        Фотографии для галереи на главной странице. Изменения сохраняются сразу. Если фото больше шести, на сайте они
        сменяют друг друга группами по шесть.
      </p>
      <p className="save-state" role="status">
        {saveState === 'saving' && 'Сохраняем…'}
        {saveState === 'failed' && (
          <>
            Изменения галереи не сохранены.{' '}
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => void save()}>
              Сохранить ещё раз
            </button>
          </>
        )}
      </p>
      <PhotoUploader
        images={images ?? []}
        onChange={update}
        max={MAX_GALLERY}
        confirmRemove={confirmRemove}
        label="Фотографии галереи"
        coverLabel="Первое"
      />
    </section>
  );
}
