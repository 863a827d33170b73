import type { Review } from '../../schema/tables.ts';
import type { OwnerNotice } from './owner.ts';

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(Math.max(0, 5 - n));

/** A new review waiting for moderation; the text is the visitor's own, sent as plain text. */
export function reviewNotice(review: Pick<Review, 'id' | 'name' | 'email' | 'rating' | 'comment'>, siteUrl?: string): OwnerNotice {
  const lines = [`${review.name} <${review.email}>`, stars(review.rating), '', review.comment];
  if (siteUrl) lines.push('', `Одобрить или скрыть: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Отзывы»`);
  return { subject: `Новый отзыв №${review.id} ждёт модерации`, text: lines.join('\n') };
}
