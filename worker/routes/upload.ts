import { Hono } from 'hono';
import { z } from 'zod';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { imageUploadLimit, readUploadedImage } from '../lib/uploaded-image.ts';
import { requireAdmin } from '../middleware/session.ts';

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
  (c, next) => imageUploadLimit(c, next),
  async (c) => {
    const image = await readUploadedImage(c, 'image', MSG.uploadMissing);
    if (!image.ok) return apiError(c, image.status, image.error);
    const key = `${crypto.randomUUID()}.${image.type.ext}`;
    await c.env.MEDIA.put(key, image.bytes, { httpMetadata: { contentType: image.type.mime } });
    return c.json({ imageUrl: `/media/${key}` }, 201);
  },
);
