import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

describe('smoke', () => {
  it('should list no cabins on an empty database', async () => {
    const res = await SELF.fetch('http://127.0.0.1/api/cabins');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});
