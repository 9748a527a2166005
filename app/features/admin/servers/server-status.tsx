import { useTranslation } from 'react-i18next';
import type { ServerStatus } from '#shared/vpn/fleet-rules.ts';
import { relativeTime } from '../../../lib/traffic-format.ts';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { useNow } from './use-now.ts';

const TONES: Record<ServerStatus, { badge: string; dot: string }> = {
  online: { badge: 'bg-emerald-100 text-emerald-800', dot: 'bg-emerald-500' },
  new: { badge: 'bg-sky-100 text-sky-800', dot: 'bg-sky-500' },
  offline: { badge: 'bg-red-100 text-red-800', dot: 'bg-red-500' },
  maintenance: { badge: 'bg-amber-100 text-amber-900', dot: 'bg-amber-500' },
  draining: { badge: 'bg-violet-100 text-violet-800', dot: 'bg-violet-500' },
};

/** A server's state in words (never by colour alone), as the fleet's channel says it now. */
export function ServerStatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation();
  const tone = TONES[status];
  return (
    <span
      data-testid="server-status"
      data-status={status}
      className={`inline-flex w-fit items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone.badge}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${tone.dot}`} />
      {t(`staff_servers.statuses.${status}`)}
    </span>
  );
}

/** Busier servers in warmer colours; the figure beside the bar says it in any case. */
function loadTone(load: number): string {
  if (load >= 85) return 'bg-red-500';
  if (load >= 60) return 'bg-amber-500';
  return 'bg-emerald-500';
}

/**
 * A server's load, 0–100 (the busier of its CPU and its devices against its capacity), as a
 * meter that screen readers announce by name and value, with the percentage written beside.
 */
export function LoadMeter({ load, name }: { load: number; name: string }) {
  const { t } = useTranslation();
  const value = Math.min(100, Math.max(0, Math.round(load)));
  return (
    <div className="flex items-center gap-2">
      {/* biome-ignore lint/a11y/useSemanticElements: a native meter is painted by the browser its own way (Chromium ignores our colours and height); the ARIA meter reads the same */}
      <div
        role="meter"
        aria-label={t('staff_servers.load_of', { name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%`}
        className="h-2 w-16 shrink-0 overflow-hidden rounded-full bg-slate-200 sm:w-20"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ${loadTone(value)}`}
          style={{ width: `${value}%` }}
        />
      </div>
      <span aria-hidden="true" className="w-9 text-right text-xs text-slate-700 tabular-nums">
        {value}%
      </span>
    </div>
  );
}

/** When the node was last heard from: relative, the exact moment as the title. */
export function LastSeen({ at }: { at: string | null }) {
  const { t } = useTranslation();
  const lang = useLang();
  // Renders again now and then, so "12 seconds ago" does not stay 12 seconds.
  useNow();
  if (!at) return <span className="text-slate-500">{t('staff_servers.never')}</span>;
  // A node's clock a little ahead of ours still reads as just now, never "in 2 seconds".
  const now = Math.max(Date.now(), Date.parse(at));
  return (
    <time dateTime={at} title={formatDateTime(at, lang)} className="whitespace-nowrap">
      {relativeTime(at, lang, now)}
    </time>
  );
}

/** Devices placed on the server against the most it takes. */
export function DevicesOfCapacity({ devices, capacity }: { devices: number; capacity: number }) {
  const { t } = useTranslation();
  return (
    <span className="whitespace-nowrap tabular-nums">
      {t('staff_servers.devices_of', { devices, capacity })}
    </span>
  );
}
