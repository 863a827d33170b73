import { describe, expect, it } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { ApiError, describeError, OFFLINE_MESSAGE } from '../../site/admin/client.ts';
import { serverErrorText } from '../../site/lib/server-error.ts';

// What the owner and a visitor read when the server refused a save: its Russian reason when it
// gives one that says what to do (the disk full, the database busy), the form's own words otherwise.

describe('the admin panel’s message for a failed save', () => {
  it.each([
    ['the disk full (507)', new ApiError(507, MSG.storageFullAdmin), `Ошибка при сохранении: ${MSG.storageFullAdmin}`],
    ['the database busy (503)', new ApiError(503, MSG.databaseBusy), `Ошибка при сохранении: ${MSG.databaseBusy}`],
    ['a refusal (400)', new ApiError(400, MSG.badJson), `Ошибка при сохранении: ${MSG.badJson}`],
    ['a bare 500', new ApiError(500, MSG.serverError), 'Ошибка при сохранении'],
    ['a proxy’s page without JSON (502)', new ApiError(502, 'API Error: 502 Bad Gateway'), 'Ошибка при сохранении'],
    ['no connection', new ApiError(0, OFFLINE_MESSAGE), `Ошибка при сохранении. ${OFFLINE_MESSAGE}`],
  ])('should show %s as the owner can act on it', (_, err, shown) => {
    expect(describeError(err, 'Ошибка при сохранении')).toBe(shown);
  });
});

describe('a public form’s message for a refused submit', () => {
  const fallback = 'Не удалось отправить заявку. Попробуйте ещё раз.';
  it.each([
    [507, MSG.storageFull, MSG.storageFull],
    [503, MSG.databaseBusy, MSG.databaseBusy],
    [409, MSG.bookingNotFree, MSG.bookingNotFree],
    [500, MSG.serverError, fallback],
    [502, undefined, fallback],
  ])('should show for %i the server’s reason when it says what to do', (status, error, shown) => {
    expect(serverErrorText(status, error, fallback)).toBe(shown);
  });
});
