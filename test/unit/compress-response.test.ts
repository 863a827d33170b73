import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressResponse } from '../../worker/platform/node/compress-response.ts';
import { chooseEncoding } from '../../worker/platform/node/static-site.ts';

const catalogue = JSON.stringify(
  Array.from({ length: 15 }, (_, i) => ({
    id: i + 1,
    name: `Домик ${i + 1}`,
    description: 'Уютный домик у самого моря. '.repeat(20),
  })),
);
const json = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': 'application/json', etag: '"v1"', ...headers } });
const get = (acceptEncoding?: string) =>
  new Request('http://127.0.0.1/api/cabins', { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the self-hosted server compressing what the app answers', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, *;q=0', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
    ['', null],
  ])('should pick %j → %s', (accept, expected) => {
    expect(chooseEncoding(accept)).toBe(expected);
  });

  it('should send brotli or gzip of the same bytes, with its own length and validator, varying by Accept-Encoding', async () => {
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await compressResponse(get(accept), json(catalogue));
      expect(res.headers.get('content-encoding')).toBe(accept);
      expect(res.headers.get('vary')).toContain('accept-encoding');
      expect(res.headers.get('etag')).toBe(`"v1-${accept}"`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      expect(body.length).toBeLessThan(catalogue.length / 4);
      expect(decode(body).toString('utf8')).toBe(catalogue);
    }
  });

  it('should compress a large answer (search at 1,500 cabins, ~650 KB) in either encoding to the same bytes', async () => {
    const lines = [
      { kind: 'nights', label: '4 400 ₽ × 3 ночи', amount: 13200 },
      { kind: 'extra', label: 'Постельное бельё × 2 гост.', amount: 600 },
    ];
    const search = JSON.stringify({
      results: Array.from({ length: 1500 }, (_, i) => ({
        id: i + 1,
        name: `Домик «Ракушка» · №${i + 1}`,
        nights: 3,
        total: 13800,
        lines,
      })),
    });
    expect(Buffer.byteLength(search)).toBeGreaterThan(300 * 1024);
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await compressResponse(get(accept), json(search));
      expect(res.headers.get('content-encoding')).toBe(accept);
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      expect(body.length).toBeLessThan(search.length / 10);
      expect(decode(body).toString('utf8')).toBe(search);
    }
  });

  it('should leave alone what a client cannot take, small answers, images, HEAD and bodies already encoded', async () => {
    const plain = await compressResponse(get(), json(catalogue));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('accept-encoding');
    expect(await plain.text()).toBe(catalogue);
    expect((await compressResponse(get('br'), json('{"ok":true}'))).headers.get('content-encoding')).toBeNull();
    const image = new Response(new Uint8Array(4096), { headers: { 'content-type': 'image/webp' } });
    expect((await compressResponse(get('br'), image)).headers.get('content-encoding')).toBeNull();
    const head = new Request('http://127.0.0.1/api/cabins', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect((await compressResponse(head, json(catalogue))).headers.get('content-encoding')).toBeNull();
    const encoded = json(catalogue, { 'content-encoding': 'gzip' });
    expect((await compressResponse(get('br'), encoded)).headers.get('content-encoding')).toBe('gzip');
  });

  it('should keep the status and headers of an error', async () => {
    const res = await compressResponse(
      get('br'),
      new Response(JSON.stringify({ error: 'ошибка '.repeat(300) }), {
        status: 400,
        headers: { 'content-type': 'application/json', 'x-kept': '1' },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('x-kept')).toBe('1');
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).error).toMatch(
      /^ошибка/,
    );
  });
});
