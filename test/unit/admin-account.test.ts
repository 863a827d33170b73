import { describe, expect, it } from 'vitest';
import { deviceName, moscowMoment } from '../../site/admin/account/device.ts';
import { changesOf, targetText } from '../../site/admin/audit/changes.ts';

describe('a session as «Аккаунт» names it', () => {
  it('should name the browser and the system in plain words', () => {
    const cases: [string, string][] = [
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
        'Chrome на Android',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari на iPhone',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
        'Яндекс Браузер на Windows',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Edge на Windows',
      ],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox на Mac'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
        'Chrome на iPhone',
      ],
      ['curl/8.5.0', 'Неизвестное устройство'],
      ['', 'Устройство не указано'],
    ];
    for (const [ua, name] of cases) expect(deviceName(ua), ua).toBe(name);
  });

  it('should tell the moment in Moscow time, with the year only when it is another year', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    // 14:53 UTC is 17:53 in Moscow.
    expect(moscowMoment(Date.UTC(2026, 10, 24, 14, 53), now)).toBe('24 ноября, 17:53 (мск)');
    // 22:30 UTC on 31 December is already this year in Moscow; 20:00 UTC is still last year.
    expect(moscowMoment(Date.UTC(2025, 11, 31, 22, 30), now)).toBe('1 января, 01:30 (мск)');
    expect(moscowMoment(Date.UTC(2025, 11, 31, 20, 0), now)).toBe('31 декабря 2025, 23:00 (мск)');
    expect(moscowMoment(Date.UTC(2024, 2, 5, 9, 0), now)).toBe('5 марта 2024, 12:00 (мск)');
  });
});

describe('an entry of «Журнал» as the owner reads it', () => {
  it('should show only the fields a save changed, with what was there and what is', () => {
    const entry = {
      before: { bookingMode: 'request', holdMinutes: 30, heroTitle: 'Домики у моря' },
      after: { bookingMode: 'prepayment', holdMinutes: 30, heroTitle: 'Домики у моря' },
    };
    expect(changesOf(entry)).toEqual([{ field: 'bookingMode', before: 'заявка', after: 'с предоплатой' }]);
    // A create has no «before»; a long value is cut; a secret arrives from the server already hidden.
    const created = changesOf({ after: { username: 'manager1', password: '***', note: 'x'.repeat(300) } });
    expect(created.map((c) => c.field)).toEqual(['username', 'password', 'note']);
    expect(created[1]!.after).toBe('***');
    expect(created[2]!.after!.length).toBe(120);
    expect(changesOf({ before: { status: 'new' }, after: { status: 'confirmed' } })).toEqual([
      { field: 'status', before: 'Новая', after: 'Подтверждена' },
    ]);
    expect(changesOf({ before: { isActive: true }, after: { isActive: false } })).toEqual([
      { field: 'isActive', before: 'да', after: 'нет' },
    ]);
    expect(changesOf({})).toEqual([]);
  });

  it('should name what an entry concerned', () => {
    expect(targetText({ action: 'PUT /api/admin/bookings/:id', target: '12' })).toBe('Заявка №12');
    expect(targetText({ action: 'DELETE /api/admin/users/:id', target: '3' })).toBe('Пользователь №3');
    expect(targetText({ action: 'POST /api/admin/bookings/:id/messages/:kind/retry', target: '12/reminder' })).toBe(
      'Заявка №12 (reminder)',
    );
    expect(targetText({ action: 'PUT /api/settings', target: null })).toBeNull();
  });
});
