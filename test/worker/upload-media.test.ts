import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import {
  GIF,
  JPEG,
  PNG,
  WEBP,
  expectError,
  expectNoChange,
  login,
  resetDataWithAdmin,
  send,
  uploadRequest,
  jsonOf,
  type Uploaded,
} from './helpers.ts';

beforeEach(resetDataWithAdmin);

const KEY = /^\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png|gif|webp)$/;

async function upload(cookie: string, bytes: Uint8Array<ArrayBuffer>, name: string, type: string) {
  const res = await uploadRequest({ bytes, name, type }, { cookie });
  const { imageUrl } = await jsonOf<Uploaded>(res, 201);
  expect(imageUrl).toMatch(KEY);
  return imageUrl;
}

describe('image upload', () => {
  it.each([
    ['a JPEG', JPEG, 'photo.jpg', 'image/jpeg', 'jpg', 'image/jpeg'],
    ['a PNG', PNG, 'photo.png', 'image/png', 'png', 'image/png'],
    ['a GIF', GIF, 'anim.gif', 'image/gif', 'gif', 'image/gif'],
    ['a WebP', WEBP, 'photo.webp', 'image/webp', 'webp', 'image/webp'],
    // The name and declared type mean nothing: the bytes decide.
    ['a PNG named .jpg and declared as JPEG', PNG, 'disguised.jpg', 'image/jpeg', 'png', 'image/png'],
  ])('should store %s in R2 under a server-made key with the sniffed type', async (_, bytes, name, type, ext, mime) => {
    const cookie = await login();
    const imageUrl = await upload(cookie, bytes, name, type);
    const key = imageUrl.slice('/media/'.length);
    expect(key.endsWith(`.${ext}`)).toBe(true);
    expect(key).not.toContain(name.split('.')[0]);
    const object = await env.MEDIA.get(key);
    expect(object).not.toBeNull();
    expect(object!.httpMetadata?.contentType).toBe(mime);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect((await env.MEDIA.list()).objects.map((o) => o.key)).toEqual([key]);
  });

  it('should give two uploads of the same file two different keys', async () => {
    const cookie = await login();
    const a = await upload(cookie, JPEG, 'same.jpg', 'image/jpeg');
    const b = await upload(cookie, JPEG, 'same.jpg', 'image/jpeg');
    expect(a).not.toBe(b);
    expect((await env.MEDIA.list()).objects).toHaveLength(2);
  });

  it('should accept a file of exactly 10 MB', async () => {
    const cookie = await login();
    const bytes = new Uint8Array(UPLOAD_MAX_BYTES);
    bytes.set(JPEG);
    await upload(cookie, bytes, 'big.jpg', 'image/jpeg');
  });

  it('should refuse a file one byte over 10 MB with 413 and store nothing', async () => {
    const cookie = await login();
    const bytes = new Uint8Array(UPLOAD_MAX_BYTES + 1);
    bytes.set(JPEG);
    await expectNoChange(async () => {
      await expectError(
        await uploadRequest({ bytes, name: 'big.jpg', type: 'image/jpeg' }, { cookie }),
        413,
        MSG.uploadTooLarge,
      );
    });
  });

  it('should refuse a request body far over 10 MB with 413 and store nothing', async () => {
    const cookie = await login();
    const bytes = new Uint8Array(UPLOAD_MAX_BYTES + 512 * 1024);
    bytes.set(JPEG);
    await expectNoChange(async () => {
      await expectError(
        await uploadRequest({ bytes, name: 'huge.jpg', type: 'image/jpeg' }, { cookie }),
        413,
        MSG.uploadTooLarge,
      );
    });
  });

  it.each([
    ['a text file named .jpg', new TextEncoder().encode('just some text, not an image'), 'notes.jpg', 'image/jpeg'],
    [
      'an SVG',
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'logo.svg',
      'image/svg+xml',
    ],
    [
      'an SVG named .png',
      new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
      'logo.png',
      'image/png',
    ],
    ['an HTML page', new TextEncoder().encode('<!doctype html><script>alert(1)</script>'), 'page.gif', 'image/gif'],
    ['a PDF', new TextEncoder().encode('%PDF-1.7\n'), 'doc.jpg', 'image/jpeg'],
  ])('should refuse %s with 415 and store nothing', async (_, bytes, name, type) => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(await uploadRequest({ bytes, name, type }, { cookie }), 415, MSG.uploadType);
    });
  });

  it('should refuse an upload that is not multipart with 415', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(
        await send('POST', '/api/upload', { cookie, body: JPEG, headers: { 'content-type': 'image/jpeg' } }),
        415,
        MSG.uploadMissing,
      );
      await expectError(
        await send('POST', '/api/upload', {
          cookie,
          body: '{"image":"x"}',
          headers: { 'content-type': 'application/json' },
        }),
        415,
        MSG.uploadMissing,
      );
    });
  });

  it('should refuse a form without the image field, or with an empty file, with 400', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(
        await uploadRequest({ bytes: JPEG, name: 'a.jpg', type: 'image/jpeg' }, { cookie, field: 'file' }),
        400,
        MSG.uploadMissing,
      );
      await expectError(
        await uploadRequest({ bytes: new Uint8Array(0), name: 'a.jpg', type: 'image/jpeg' }, { cookie }),
        400,
        MSG.uploadMissing,
      );
      const form = new FormData();
      form.append('image', 'not a file');
      await expectError(await send('POST', '/api/upload', { cookie, body: form }), 400, MSG.uploadMissing);
    });
  });

  it('should refuse a broken multipart body with 400', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await send('POST', '/api/upload', {
        cookie,
        body: '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      });
      await expectError(res, 400, MSG.uploadMissing);
    });
  });
});

describe('media serving', () => {
  it('should stream an uploaded photo with its type, a long immutable cache and nosniff', async () => {
    const cookie = await login();
    const imageUrl = await upload(cookie, PNG, 'photo.png', 'image/png');
    const res = await send('GET', imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('etag')).toBeTruthy();
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it('should answer 304 to a revalidation with the same etag', async () => {
    await env.MEDIA.put('11111111-2222-3333-4444-555555555555.jpg', JPEG, {
      httpMetadata: { contentType: 'image/jpeg' },
    });
    const first = await send('GET', '/media/11111111-2222-3333-4444-555555555555.jpg');
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const again = await send('GET', '/media/11111111-2222-3333-4444-555555555555.jpg', {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it.each([
    ['an unknown key', '/media/00000000-0000-0000-0000-000000000000.jpg'],
    ['an encoded traversal', '/media/..%2Fx'],
    ['an encoded traversal to an image name', '/media/..%2F11111111-2222-3333-4444-555555555555.jpg'],
    ['an SVG name', '/media/a.svg'],
    ['an HTML name', '/media/a.html'],
    ['a key without extension', '/media/abc'],
  ])('should answer 404 JSON for %s', async (_, path) => {
    // An object that exists in the bucket under an odd name is still never served.
    await env.MEDIA.put('a.svg', '<svg/>', { httpMetadata: { contentType: 'image/svg+xml' } });
    await env.MEDIA.put('11111111-2222-3333-4444-555555555555.jpg', JPEG, {
      httpMetadata: { contentType: 'image/jpeg' },
    });
    const res = await send('GET', path);
    await expectError(res, 404, MSG.notFound);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('should answer 404 for a nested path under /media, never an object', async () => {
    await env.MEDIA.put('a/b.jpg', JPEG, { httpMetadata: { contentType: 'image/jpeg' } });
    const res = await send('GET', '/media/a/b.jpg');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toBe('image/jpeg');
  });
});
