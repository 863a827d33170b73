import { Hono } from 'hono';
import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { sniffImageType } from '../lib/image-type.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { requireAdmin } from '../middleware/session.ts';

// Room for the multipart envelope around a file of the maximum size.
const MULTIPART_OVERHEAD = 64 * 1024;
const uploadLimit = limitBody(UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD, MSG.uploadTooLarge, MSG.uploadMissing);

const doc = docs('Фото');

export const uploadRoutes = new Hono<AppEnv>().post(
  '/',
  doc('Загрузить фото (multipart, поле image)', {
    admin: true,
    status: 201,
    answer: z.object({ imageUrl: z.string() }),
    errors: [413, 415],
    body: { media: 'multipart/form-data', schema: z.object({ image: z.file() }) },
  }),
  requireAdmin,
  (c, next) => uploadLimit(c, next),
  async (c) => {
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? ''))
      return apiError(c, 415, MSG.uploadMissing);
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      return apiError(c, 400, MSG.uploadMissing);
    }
    const file = form.get('image');
    if (!(file instanceof File) || file.size === 0) return apiError(c, 400, MSG.uploadMissing);
    if (file.size > UPLOAD_MAX_BYTES) return apiError(c, 413, MSG.uploadTooLarge);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = sniffImageType(bytes.subarray(0, 16));
    if (!type) return apiError(c, 415, MSG.uploadType);
    const key = `${crypto.randomUUID()}.${type.ext}`;
    await c.env.MEDIA.put(key, bytes, { httpMetadata: { contentType: type.mime } });
    return c.json({ imageUrl: `/media/${key}` }, 201);
  },
);
