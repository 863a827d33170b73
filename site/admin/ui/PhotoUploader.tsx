import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { UPLOAD_HINT } from '../../../schema/constants.ts';
import { SessionEndedError } from '../client.ts';
import { refuseReason, uploadImage } from './upload.ts';
import { Icon } from './Icon.tsx';
import { useNotify } from './Notice.tsx';

type Item = { key: number; name: string; progress: number; state: 'uploading' | 'failed' | 'refused'; reason?: string };
export type ImagesUpdate = (update: (images: string[]) => string[]) => void;

type Props = {
  /** The photos in order; the first is the cover. */
  images: string[];
  onChange: ImagesUpdate;
  /** The most photos the list may hold (the schema's limit). */
  max: number;
  /** Asked before a photo is removed (the gallery saves at once; the cabin form does not need it). */
  confirmRemove?: () => Promise<boolean>;
  onBusyChange?: (busy: boolean) => void;
  /** Names the photo list for screen readers, e.g. «Фотографии домика». */
  label: string;
  coverLabel?: string;
};

const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';
let nextKey = 1;

/**
 * Images only, many at once, by drag and drop or the file picker. Each file is checked in the
 * browser first (type by its bytes, size), then all upload in parallel with a progress bar each.
 * Photos can be reordered (the first is the cover) and removed.
 */
export function PhotoUploader({
  images,
  onChange,
  max,
  confirmRemove,
  onBusyChange,
  label,
  coverLabel = 'Обложка',
}: Props) {
  const [items, setItems] = useState<Item[]>([]);
  const [dragOver, setDragOver] = useState(false);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const notify = useNotify();
  const hintId = useId();
  const listId = useId();
  const busy = items.some((i) => i.state === 'uploading');
  const alive = useRef(true);

  useEffect(() => () => void (alive.current = false), []);
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);

  const patch = (key: number, change: Partial<Item>) =>
    alive.current && setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  async function addFiles(files: File[]) {
    if (files.length === 0) return;
    const checked = await Promise.all(files.map(async (file) => ({ file, reason: await refuseReason(file) })));
    let room = max - images.length - items.filter((i) => i.state === 'uploading').length;
    const queued: { file: File; key: number }[] = [];
    const newItems: Item[] = checked.map(({ file, reason }) => {
      const key = nextKey++;
      if (!reason && room <= 0) reason = `не больше ${max} фото`;
      if (reason) return { key, name: file.name, progress: 0, state: 'refused', reason };
      room--;
      queued.push({ file, key });
      return { key, name: file.name, progress: 0, state: 'uploading' };
    });
    setItems((list) => [...list.filter((i) => i.state === 'uploading'), ...newItems]);
    if (queued.length === 0) return;

    const results = await Promise.allSettled(
      queued.map(({ file, key }) => uploadImage(file, (progress) => patch(key, { progress }))),
    );
    if (results.some((r) => r.status === 'rejected' && r.reason instanceof SessionEndedError)) return;
    const urls: string[] = [];
    results.forEach((r, n) => {
      const { key } = queued[n]!;
      if (r.status === 'fulfilled') {
        urls.push(r.value);
        if (alive.current) setItems((list) => list.filter((i) => i.key !== key));
      } else {
        patch(key, { state: 'failed', reason: r.reason instanceof Error ? r.reason.message : String(r.reason) });
      }
    });
    if (urls.length > 0) onChange((current) => [...current, ...urls]);
    if (urls.length < queued.length) notify.error('Ошибка при загрузке изображений');
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragOver(false);
    if (e.dataTransfer.files.length > 0) void addFiles([...e.dataTransfer.files]);
  }

  function move(from: number, to: number) {
    if (to < 0 || to >= images.length || from === to) return;
    onChange((list) => {
      const next = [...list];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved!);
      return next;
    });
  }

  async function remove(index: number) {
    if (confirmRemove && !(await confirmRemove())) return;
    const url = images[index];
    onChange((list) => list.filter((u, i) => !(i === index && u === url)));
  }

  const refusedOrFailed = items.filter((i) => i.state !== 'uploading');
  return (
    <div className="uploader">
      {images.length > 0 ? (
        <ol className="photos" id={listId} aria-label={label}>
          {images.map((url, i) => (
            <li
              key={`${url}-${i}`}
              className={`photo ${dragFrom === i ? 'photo--dragging' : ''}`}
              draggable
              onDragStart={(e) => {
                setDragFrom(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/x-photo-index', String(i));
              }}
              onDragEnd={() => setDragFrom(null)}
              onDragOver={(e) => {
                if (dragFrom !== null) e.preventDefault();
              }}
              onDrop={(e) => {
                if (dragFrom === null) return;
                e.preventDefault();
                e.stopPropagation();
                move(dragFrom, i);
                setDragFrom(null);
              }}
            >
              <img src={url} alt={`Фото ${i + 1}`} loading="lazy" decoding="async" />
              {i === 0 && <span className="badge badge--dark photo__cover">{coverLabel}</span>}
              <div className="photo__tools">
                <button type="button" className="photo__btn" onClick={() => move(i, i - 1)} disabled={i === 0}>
                  <Icon name="chevron-left" label={`Фото ${i + 1}: переместить раньше`} />
                </button>
                <button
                  type="button"
                  className="photo__btn"
                  onClick={() => move(i, i + 1)}
                  disabled={i === images.length - 1}
                >
                  <Icon name="chevron-right" label={`Фото ${i + 1}: переместить дальше`} />
                </button>
                <button type="button" className="photo__btn photo__btn--danger" onClick={() => void remove(i)}>
                  <Icon name="trash" label={`Удалить фото ${i + 1}`} />
                </button>
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted uploader__empty">Фотографий пока нет.</p>
      )}

      <div
        className={`dropzone ${dragOver ? 'dropzone--over' : ''}`}
        onDragOver={(e) => {
          if (dragFrom !== null || !e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={onDrop}
      >
        <Icon name="upload" className="dropzone__icon" />
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => input.current?.click()}
          aria-describedby={hintId}
        >
          <Icon name="plus" /> Выбрать фото
        </button>
        <span className="dropzone__or">или перетащите файлы сюда</span>
        <span className="hint" id={hintId}>
          {UPLOAD_HINT}
        </span>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          data-testid="photo-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void addFiles(files);
          }}
        />
      </div>

      <div role="status" className="uploads" aria-live="polite">
        {busy && (
          <p className="uploads__busy">
            <span className="spinner spinner--sm" aria-hidden="true" /> Загружаем изображения...
          </p>
        )}
        {items
          .filter((i) => i.state === 'uploading')
          .map((i) => (
            <div key={i.key} className="upload">
              <span className="upload__name">{i.name}</span>
              <progress max={1} value={i.progress} aria-label={`Загрузка ${i.name}`} />
              <span className="upload__pct">{Math.round(i.progress * 100)}%</span>
            </div>
          ))}
      </div>
      {refusedOrFailed.length > 0 && (
        <ul className="upload-errors" role="alert">
          {refusedOrFailed.map((i) => (
            <li key={i.key} className="upload-errors__item">
              <Icon name="x" />
              <span>
                «{i.name}» не загружен: {i.reason}
              </span>
              <button
                type="button"
                className="btn btn--ghost btn--icon btn--sm"
                onClick={() => setItems((list) => list.filter((x) => x.key !== i.key))}
              >
                <Icon name="close" label={`Скрыть сообщение о файле ${i.name}`} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
