import { describe, expect, it } from 'vitest';
import { reportQuerySchema, periodMonths } from '../../schema/reports.ts';
import { MSG } from '../../schema/messages.ts';
import { monthLabel, percent, periodLabel, presetPeriod, stepPeriod } from '../../site/admin/reports/period.ts';

// «Сводка»'s period picker: the presets, their arrows and labels, and the period rules
// the panel checks before asking (the server checks the same schema).

describe('the period of «Сводка»', () => {
  it('should give the month, season and year holding a day, and step them back and forth across years', () => {
    expect(presetPeriod('month', '2024-02-10')).toEqual({ kind: 'month', from: '2024-02-01', to: '2024-02-29' });
    expect(presetPeriod('season', '2025-11-03')).toEqual({ kind: 'season', from: '2025-06-01', to: '2025-09-30' });
    expect(stepPeriod(presetPeriod('month', '2025-01-15'), -1)).toEqual({
      kind: 'month',
      from: '2024-12-01',
      to: '2024-12-31',
    });
    expect(stepPeriod(presetPeriod('year', '2025-05-05'), 1)).toEqual({
      kind: 'year',
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(periodLabel(presetPeriod('season', '2025-07-01'))).toBe('Сезон 2025 (июнь — сентябрь)');
    expect(periodLabel({ kind: 'custom', from: '2025-12-20', to: '2026-01-10' })).toBe(
      '20\u00a0декабря 2025 — 10\u00a0января 2026',
    );
    expect(monthLabel('2025-07')).toBe('Июль 2025');
    expect(percent(0.1557)).toBe('15,6\u00a0%');
    expect(percent(null)).toBe('—');
  });

  it('should take up to 3 years, refuse more and an end before the start, and split a period into its months', () => {
    expect(reportQuerySchema.safeParse({ from: '2025-01-01', to: '2027-12-31' }).success).toBe(true);
    expect(reportQuerySchema.safeParse({ from: '2025-01-01', to: '2028-01-01' }).error?.issues[0]?.message).toBe(
      MSG.reportPeriodTooLong,
    );
    expect(reportQuerySchema.safeParse({ from: '2025-02-01', to: '2025-01-31' }).error?.issues[0]?.message).toBe(
      MSG.datesOrder,
    );
    expect(periodMonths({ from: '2025-06-20', to: '2025-08-05' })).toEqual([
      { month: '2025-06', nights: 11 },
      { month: '2025-07', nights: 31 },
      { month: '2025-08', nights: 5 },
    ]);
  });
});
