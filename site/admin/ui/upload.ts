import { UPLOAD_MAX_BYTES } from '../../../schema/constants.ts';
import { sniffImageType } from '../../../worker/lib/image-type.ts';
import { ApiError, OFFLINE_MESSAGE, sessionEnded } from '../client.ts';

// Photo uploads for the panel's forms (kept out of client.ts, which the login screen loads).

const TYPE_NAMES = 'JPG, PNG, GIF или WebP';

/** Why this file can't be uploaded, checked in the browser before any byte is sent; null if fine. */
export async function refuseReason(file: File): Promise<string | null> {
  if (file.size > UPLOAD_MAX_BYTES) {
    return `файл больше 10 МБ (${(file.size / 1024 / 1024).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} МБ)`;
  }
  if (file.size === 0) return 'файл пустой';
  if (file.type && !file.type.startsWith('image/')) return `это не изображение (можно ${TYPE_NAMES})`;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  if (!sniffImageType(head)) return `это не изображение ${TYPE_NAMES} или файл повреждён`;
  return null;
}

/**
 * Uploads one image with XMLHttpRequest (fetch has no upload progress). Resolves with its URL.
 * `onProgress` gets 0..1 as bytes go out.
 */
export function uploadImage(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { imageUrl?: string; error?: string } | null;
      if (xhr.status === 401) {
        try {
          sessionEnded();
        } catch (err) {
          reject(err);
        }
        return;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.imageUrl) {
        onProgress(1);
        resolve(body.imageUrl);
      } else {
        reject(new ApiError(xhr.status, body?.error || `Upload Error: ${xhr.status} ${xhr.statusText}`));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, OFFLINE_MESSAGE));
    xhr.onabort = () => reject(new ApiError(0, 'Загрузка отменена'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('image', file, file.name);
    xhr.send(form);
  });
}
