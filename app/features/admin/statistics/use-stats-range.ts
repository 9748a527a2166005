import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Granularity, type RangePreset, type RangeState, readRange } from './date-range.ts';

export interface RangePatch {
  preset?: RangePreset;
  from?: string;
  to?: string;
  granularity?: Granularity;
}

/**
 * The statistics range kept in the URL (`range`, `from`, `to`, `granularity`), so a view can
 * be shared, reloaded and stepped through with Back. "Today" is fixed when the screen opens.
 */
export function useStatsRange() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [now] = useState(() => new Date());
  const state = useMemo<RangeState>(() => readRange(searchParams, now), [searchParams, now]);

  const update = useCallback(
    (patch: RangePatch) => {
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        if (patch.preset !== undefined) next.set('range', patch.preset);
        const custom = (patch.preset ?? next.get('range')) === 'custom';
        if (custom) {
          if (patch.from !== undefined) next.set('from', patch.from);
          if (patch.to !== undefined) next.set('to', patch.to);
        } else {
          next.delete('from');
          next.delete('to');
        }
        if (patch.granularity !== undefined) next.set('granularity', patch.granularity);
        else if (patch.preset !== undefined || custom) next.delete('granularity');
        return next;
      });
    },
    [setSearchParams],
  );

  return { state, update };
}
