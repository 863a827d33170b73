import { describe, expect, it } from 'vitest';
import { etagMatches, memoryAnswers, type MemoryAnswer } from '../../worker/platform/kept-answers.ts';
import { oncePerTurn } from '../../worker/platform/node/memory-answers.ts';

const answer = (bytes: number): MemoryAnswer => ({
  headers: ['content-type', 'text/plain'],
  body: new Uint8Array(bytes),
  etag: null,
  stamp: 's',
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('answers kept in memory (both servers)', () => {
  it('should drop the oldest answers once the bodies pass the limit, and never keep one larger than an entry may be', () => {
    const memory = memoryAnswers({ maxBytes: 1000, maxEntryBytes: 600 });
    memory.set('a', answer(400));
    memory.set('b', answer(400));
    memory.set('c', answer(400));
    expect([memory.get('a'), memory.get('b'), memory.get('c')].map(Boolean)).toEqual([false, true, true]);
    memory.set('big', answer(700));
    expect(memory.get('big')).toBeUndefined();
    memory.set('b', answer(100)); // replaced, not counted twice
    memory.set('d', answer(500));
    expect([memory.get('b'), memory.get('c'), memory.get('d')].map(Boolean)).toEqual([true, true, true]);
  });

  it('should read once for the requests of one turn of the event loop and again in the next', async () => {
    let reads = 0;
    let value = 1;
    const stamp = oncePerTurn(() => (reads++, value));
    expect([stamp(), stamp(), stamp()]).toEqual([1, 1, 1]);
    value = 2;
    expect(stamp()).toBe(1);
    await nextTurn();
    expect(stamp()).toBe(2);
    expect(reads).toBe(2);
  });

  it('should match If-None-Match weakly, in a list, and not a different tag', () => {
    expect(etagMatches('"a-1"', '"a-1"')).toBe(true);
    expect(etagMatches('W/"x", W/"a-1"', '"a-1"')).toBe(true);
    expect(etagMatches('"a-2"', '"a-1"')).toBe(false);
    expect(etagMatches(undefined, '"a-1"')).toBe(false);
  });
});
