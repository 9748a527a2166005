import { describe, expect, it } from 'vitest';
import { periodLine } from './period-line.ts';

describe('the date beside the status', () => {
  const base = {
    service_id: 1 as const,
    onetime: false,
    cancel_at_period_end: false,
    current_period_end: '2026-12-01T00:00:00.000Z',
    grace_until: null,
    ended_at: null,
    paused_at: null,
  };
  it('renews, ends, or ended as the plan stands', () => {
    expect(periodLine({ ...base, status: 'active' }).kind).toBe('renews');
    expect(periodLine({ ...base, status: 'active', cancel_at_period_end: true }).kind).toBe('ends');
    expect(periodLine({ ...base, status: 'canceled' }).kind).toBe('ends');
    // Bonus days are never charged: they end.
    expect(periodLine({ ...base, status: 'active', service_id: 5 }).kind).toBe('ends');
    expect(periodLine({ ...base, status: 'expired' }).kind).toBe('ended');
    expect(periodLine({ ...base, status: 'refunded' })).toEqual({ kind: 'none' });
    expect(
      periodLine({ ...base, status: 'on_hold', grace_until: '2026-12-08T00:00:00.000Z' }),
    ).toEqual({ kind: 'access_until', date: '2026-12-08T00:00:00.000Z' });
  });
});
