import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CountryUpdateRequest,
  type FleetCountry,
  type FleetCountryResponse,
  serverEndpoints,
} from '#shared/contracts/admin/servers.ts';
import type { ListControls } from '#shared/contracts/list.ts';
import { call } from '../../../api/client.ts';
import { Spinner } from '../../../ui/spinner.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { FLEET_KEYS } from './fleet-queries.ts';

type CountryList = { items: FleetCountry[]; controls: ListControls };

/**
 * Shows or hides a country from customers, or moves it in their list; the answer replaces the
 * country wherever a screen holds it (the lists, its own page), then they fetch again.
 */
function useUpdateCountry() {
  const client = useQueryClient();
  const lang = useLang();
  return async (change: CountryUpdateRequest): Promise<FleetCountry> => {
    const { country } = await call(serverEndpoints.updateCountry, { body: { ...change, lang } });
    // Only what changed: the lists may hold names the page's language sorted differently.
    const put = (item: FleetCountry) =>
      item.country_code === country.country_code
        ? { ...item, visible: country.visible, sort: country.sort }
        : item;
    client.setQueriesData<unknown>({ queryKey: FLEET_KEYS.countries }, (data: unknown) => {
      if (Array.isArray(data)) return (data as FleetCountry[]).map(put);
      const list = data as CountryList | undefined;
      return list?.items ? { ...list, items: list.items.map(put) } : data;
    });
    client.setQueriesData<FleetCountryResponse>({ queryKey: FLEET_KEYS.country }, (data) =>
      data && data.country.country_code === country.country_code
        ? { ...data, country: { ...data.country, visible: country.visible, sort: country.sort } }
        : data,
    );
    // The list's order may have changed.
    void client.invalidateQueries({ queryKey: FLEET_KEYS.countries });
    return country;
  };
}

/** A switch (keyboard: Space or Enter) that shows the country to customers or hides it. */
export function VisibleSwitch({ country }: { country: FleetCountry }) {
  const { t } = useTranslation();
  const update = useUpdateCountry();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      const saved = await update({
        country_code: country.country_code,
        visible: !country.visible,
        sort: country.sort,
      });
      notify.success(
        saved.visible
          ? 'staff_servers.countries.done.shown'
          : 'staff_servers.countries.done.hidden',
        { values: { name: country.name } },
      );
    } catch (error) {
      notifyRequestError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      role="switch"
      aria-checked={country.visible}
      aria-busy={busy || undefined}
      aria-label={t('staff_servers.countries.visible_label', { name: country.name })}
      onClick={() => {
        if (!busy) void toggle();
      }}
      className="group inline-flex items-center gap-2 rounded-full text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
    >
      <span
        aria-hidden="true"
        className={`relative inline-flex h-6 w-10 shrink-0 items-center rounded-full transition-colors ${
          country.visible ? 'bg-brand-500' : 'bg-slate-300'
        } ${busy ? 'opacity-60' : ''}`}
      >
        <span
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            country.visible ? 'translate-x-[1.125rem]' : 'translate-x-0.5'
          }`}
        />
      </span>
      <span className="text-slate-700">
        {t(country.visible ? 'staff_servers.countries.shown' : 'staff_servers.countries.hidden')}
      </span>
    </button>
  );
}

/**
 * The country's place in the customers' list (lowest first, then by name): a number field,
 * saved on Enter or when focus leaves it; its arrows (and the keyboard's) step by one.
 */
export function SortField({
  country,
  showLabel = false,
}: {
  country: FleetCountry;
  showLabel?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateCountry();
  const [text, setText] = useState(String(country.sort));
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(String(country.sort)), [country.sort]);
  const label = t('staff_servers.countries.sort_label', { name: country.name });

  const save = async () => {
    const sort = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(sort) || Math.abs(sort) > 10_000) {
      notify.danger('staff_servers.countries.sort_invalid');
      setText(String(country.sort));
      return;
    }
    if (sort === country.sort) return;
    setBusy(true);
    try {
      const saved = await update({
        country_code: country.country_code,
        visible: country.visible,
        sort,
      });
      notify.success('staff_servers.countries.done.sorted', {
        values: { name: country.name, sort: saved.sort },
      });
    } catch (error) {
      setText(String(country.sort));
      notifyRequestError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex items-center gap-2">
      {showLabel ? (
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {t('staff_servers.countries.fields.sort')}
        </label>
      ) : null}
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={-10_000}
        max={10_000}
        step={1}
        value={text}
        aria-label={showLabel ? undefined : label}
        aria-describedby={showLabel ? `${id}-hint` : undefined}
        aria-busy={busy || undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => void save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void save();
          }
        }}
        className="h-9 w-20 rounded-lg border border-[#dfe1e6] bg-white px-2 text-sm tabular-nums focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
      />
      {busy && <Spinner size="sm" decorative />}
      {showLabel ? (
        <span id={`${id}-hint`} className="text-xs text-slate-500">
          {t('staff_servers.countries.sort_hint')}
        </span>
      ) : null}
    </div>
  );
}
