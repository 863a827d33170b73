import type { Context } from 'hono';
import { UPLOAD_MAX_BYTES } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { type ImageType, sniffImageType } from './image-type.ts';

// Room for the multipart envelope around a file of the maximum size.
const MULTIPART_OVERHEAD = 64 * 1024;

/** The body limit of a one-photo multipart upload: 10 MB and the envelope. */
export const imageUploadLimit = limitBody(UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD, MSG.uploadTooLarge, MSG.uploadMissing);

export type UploadedImage =
  | { ok: true; bytes: Uint8Array; type: ImageType }
  | { ok: false; status: 400 | 413 | 415; error: string };

/**
 * The one image of a multipart body's `field`, checked as every upload is: multipart, a file not
 * empty, at most 10 MB, and an image by its first bytes (never by its name or declared type).
 * `missing` is the words for a body without the file.
 */
export async function readUploadedImage(c: Context, field: string, missing: string): Promise<UploadedImage> {
  if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? ''))
    return { ok: false, status: 415, error: missing };
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return { ok: false, status: 400, error: missing };
  }
  const file = form.get(field);
  if (!(file instanceof File) || file.size === 0) return { ok: false, status: 400, error: missing };
  if (file.size > UPLOAD_MAX_BYTES) return { ok: false, status: 413, error: MSG.uploadTooLarge };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes.subarray(0, 16));
  if (!type) return { ok: false, status: 415, error: MSG.uploadType };
  return { ok: true, bytes, type };
}
