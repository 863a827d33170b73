import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LIMIT } from '../../schema/max.ts';
import { maxParts } from '../../worker/notify/max-api.ts';

// A guest's message longer than MAX takes in one (an automatic answer's template) goes in parts.
describe('maxParts', () => {
  it('should keep a text MAX takes whole as it is', () => {
    expect(maxParts('Сейчас ночь: ответим до 9:00.')).toEqual(['Сейчас ночь: ответим до 9:00.']);
    expect(maxParts('а'.repeat(MAX_TEXT_LIMIT))).toEqual(['а'.repeat(MAX_TEXT_LIMIT)]);
  });

  it('should cut a longer text at a line’s or a word’s end, losing no word, each part within the limit', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `Строка ${i + 1}: как добраться до домика у моря.`);
    const text = lines.join('\n');
    const parts = maxParts(text);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(MAX_TEXT_LIMIT);
    expect(parts.join('\n')).toBe(text);
    for (const p of parts) expect(p.endsWith('.')).toBe(true);
  });

  it('should cut a text with no space at the limit itself', () => {
    const parts = maxParts('б'.repeat(MAX_TEXT_LIMIT * 2 + 5));
    expect(parts.map((p) => p.length)).toEqual([MAX_TEXT_LIMIT, MAX_TEXT_LIMIT, 5]);
  });
});
