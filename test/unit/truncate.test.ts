import { describe, expect, it } from 'vitest';
import { HOME_REVIEW_PREVIEW_CHARS, REVIEW_CARD_PREVIEW_CHARS } from '../../schema/constants.ts';
import { truncate } from '../../site/lib/truncate.ts';

describe('truncate', () => {
  it('should keep text that fits unchanged', () => {
    expect(truncate('Отличный домик', 120)).toEqual({ text: 'Отличный домик', truncated: false });
    const exact = 'я'.repeat(REVIEW_CARD_PREVIEW_CHARS);
    expect(truncate(exact, REVIEW_CARD_PREVIEW_CHARS)).toEqual({ text: exact, truncated: false });
  });

  it('should cut to 120 characters plus ellipsis for review cards', () => {
    const text = 'а'.repeat(REVIEW_CARD_PREVIEW_CHARS + 1);
    const r = truncate(text, REVIEW_CARD_PREVIEW_CHARS);
    expect(r.truncated).toBe(true);
    expect(r.text).toBe('а'.repeat(120) + '...');
  });

  it('should cut to 150 characters plus ellipsis on the home page', () => {
    const text = 'б'.repeat(400);
    expect(truncate(text, HOME_REVIEW_PREVIEW_CHARS).text).toBe('б'.repeat(150) + '...');
  });

  it('should trim spaces before the ellipsis', () => {
    expect(truncate('Море рядом, тихо и чисто', 11)).toEqual({ text: 'Море рядом,...', truncated: true });
    expect(truncate('Море   рядом', 6)).toEqual({ text: 'Море...', truncated: true });
  });

  it('should not split a surrogate pair', () => {
    // 'ab' + 🌊 (two UTF-16 units) + 'cd': cutting at 3 would leave half the emoji.
    const r = truncate('ab\u{1F30A}cd', 3);
    expect(r).toEqual({ text: 'ab...', truncated: true });
    expect(r.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(truncate('ab\u{1F30A}cd', 4)).toEqual({ text: 'ab\u{1F30A}...', truncated: true });
  });

  it('should not report a cut when only trailing whitespace is past the limit', () => {
    expect(truncate('Всё понравилось   \n', 15)).toEqual({ text: 'Всё понравилось', truncated: false });
  });

  it('should handle empty text', () => {
    expect(truncate('', 120)).toEqual({ text: '', truncated: false });
  });
});
