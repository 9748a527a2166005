import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocationsResponse } from '#shared/contracts/vpn.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import { failureMessage } from '../../api/api-error.ts';
import { Button } from '../../ui/button.tsx';
import { Select, type SelectOption } from '../../ui/select.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useVpnLocations } from './vpn-api.ts';

function optionsOf(
  t: (key: string, values?: Record<string, unknown>) => string,
  data: LocationsResponse | undefined,
): SelectOption<string>[] {
  if (!data) return [];
  return [
    {
      value: FASTEST,
      name: data.fastest
        ? t('vpn.form.fastest_to', { country: data.fastest.name })
        : t('vpn.device.fastest'),
      disabled: !data.fastest,
    },
    ...data.items.map((location) => ({
      value: location.country_code,
      name: location.name,
      label: t('vpn.form.cities_load', {
        cities: location.cities.join(', '),
        load: location.load,
      }),
    })),
  ];
}

/**
 * Where a device goes: "Fastest" first (naming where it would go now), then each country
 * with a server taking devices, its cities and the load of its lightest server. While it is
 * open the page follows the fleet's locations channel, so the list stays current.
 */
export function LocationSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  /** An i18n key. */
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const locations = useVpnLocations();
  const options = useMemo(() => optionsOf(t, locations.data), [t, locations.data]);
  const chosen = locations.data?.items.find((item) => item.country_code === value);
  let hint: string | undefined;
  if (locations.data && value === FASTEST) {
    hint = locations.data.fastest
      ? t('vpn.form.fastest_hint', { country: locations.data.fastest.name })
      : t('vpn.form.fastest_none');
  } else if (chosen) {
    hint = t('vpn.form.country_hint', { country: chosen.name });
  }
  return (
    <div className="flex flex-col gap-1" data-testid="vpn-location">
      <Select
        label={t('vpn.form.location')}
        options={options}
        value={value}
        onSelect={onChange}
        error={error}
        disabled={locations.isPending}
        placeholder={locations.isPending ? t('vpn.form.loading_locations') : undefined}
      />
      {locations.isPending ? (
        <p role="status" className="flex items-center gap-2 text-xs text-slate-600">
          <Spinner size="sm" decorative className="text-brand-500" />
          {t('vpn.form.loading_locations')}
        </p>
      ) : locations.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-xs text-red-700">
          <span>
            {t('vpn.form.locations_failed')} {t(failureMessage(locations.error))}
          </span>
          <Button variant="secondary" onClick={() => locations.refetch()}>
            {t('vpn.devices.retry')}
          </Button>
        </div>
      ) : (
        hint && !error && <p className="text-xs text-slate-500">{hint}</p>
      )}
    </div>
  );
}
