import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { AdminService, ProductMassChange } from '#shared/contracts/admin/products.ts';
import { isApiError } from '../../../api/api-error.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { SortableList, type SortableTexts } from '../kit/sortable-list.tsx';
import { useUnsavedGuard } from '../kit/use-unsaved-guard.ts';
import {
  changesOf,
  type Draft,
  initialDraft,
  moveItem,
  type PlanGroup,
  type RowDraft,
  rowProblem,
  sameDraft,
} from './plan-draft.ts';
import { PlanRow } from './plan-row.tsx';
import { type PlanTab, SERVICE_LABELS } from './plan-tabs.ts';
import { useSavePlans } from './use-managed-plans.ts';

/** What the plans' sortable lists say (admin-plans.json). */
const SORT_TEXTS: SortableTexts = {
  help: 'staff_plans.sort.help',
  handle: 'staff_plans.sort.handle',
  moveUp: 'staff_plans.sort.move_up',
  moveDown: 'staff_plans.sort.move_down',
  picked: 'staff_plans.sort.picked',
  moved: 'staff_plans.sort.moved',
  dropped: 'staff_plans.sort.dropped',
  canceled: 'staff_plans.sort.canceled',
};

export interface PlanOrderEditorProps {
  tab: PlanTab;
  currency: string;
  currencies: readonly string[];
  groups: readonly PlanGroup[];
  services: readonly AdminService[];
  /** Names of includable addons by id (the bundles tab). */
  included: ReadonlyMap<number, string> | undefined;
}

const EMPTY_TEXTS = {
  plans: 'staff_plans.empty.plans',
  addons: 'staff_plans.empty.addons',
  bundles: 'staff_plans.empty.bundles',
} as const;

/** The lists of one currency, edited as a draft and saved in one mass update. */
export function PlanOrderEditor({
  tab,
  currency,
  currencies,
  groups,
  services,
  included,
}: PlanOrderEditorProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const currencyId = useId();
  const [, setSearch] = useSearchParams();
  const base = useMemo(() => initialDraft(groups), [groups]);
  const [edited, setEdited] = useState<Draft | null>(null);
  const draft = edited ?? base;
  const dirty = edited !== null && !sameDraft(edited, base);
  const [saving, setSaving] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<number, string>>({});
  const [announcement, setAnnouncement] = useState({ text: '', count: 0 });
  const announce = (text: string) =>
    setAnnouncement((previous) => ({ text, count: previous.count + 1 }));
  const save = useSavePlans(tab, currency);
  const rootRef = useRef<HTMLDivElement>(null);
  useUnsavedGuard(dirty, 'staff_plans.leave_text');

  const productsById = useMemo(
    () => new Map(groups.flatMap((group) => group.products).map((p) => [p.product_id, p])),
    [groups],
  );
  const problems = new Map<number, string>();
  for (const [id, row] of Object.entries(draft.rows)) {
    const product = productsById.get(Number(id));
    const problem = product && rowProblem(product, row);
    if (problem) problems.set(Number(id), problem);
  }
  // A list holding all of a service's products is numbered afresh; the bundles are a part.
  const changes = changesOf(groups, draft, !tab.bundlesOnly);

  const update = (change: (current: Draft) => Draft) =>
    setEdited((current) => change(current ?? base));
  const moveTo = (groupIndex: number) => (id: number, to: number) =>
    update((current) => ({
      ...current,
      order: current.order.map((ids, index) =>
        index === groupIndex ? moveItem(ids, ids.indexOf(id), to) : ids,
      ),
    }));
  const patchRow = (groupIndex: number, id: number) => (patch: Partial<RowDraft>) => {
    setServerErrors(({ [id]: _, ...rest }) => rest);
    update((current) => {
      const rows: Record<number, RowDraft> = { ...current.rows };
      // Most selected is one per service and currency: choosing one clears the others.
      if (patch.as_most_selected) {
        for (const other of current.order[groupIndex] ?? []) {
          const row = rows[other];
          if (row) rows[other] = { ...row, as_most_selected: false };
        }
      }
      const row = rows[id];
      if (row) rows[id] = { ...row, ...patch };
      return { ...current, rows };
    });
  };
  const clearMostSelected = (groupIndex: number) =>
    update((current) => {
      const rows: Record<number, RowDraft> = { ...current.rows };
      for (const id of current.order[groupIndex] ?? []) {
        const row = rows[id];
        if (row) rows[id] = { ...row, as_most_selected: false };
      }
      return { ...current, rows };
    });

  const discard = () => {
    setEdited(null);
    setShowProblems(false);
    setServerErrors({});
    announce(t('staff_plans.discarded'));
  };

  const submit = async () => {
    if (problems.size > 0) {
      setShowProblems(true);
      // The first field to fix gets focus; its message says what is wrong.
      requestAnimationFrame(() =>
        rootRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    if (changes.length === 0) return;
    setSaving(true);
    try {
      await save(changes);
      setEdited(null);
      setShowProblems(false);
      setServerErrors({});
      notify.success('staff_plans.saved', { description: 'staff_plans.saved_hint' });
    } catch (error) {
      const errors = rowErrors(error, changes);
      const whole = isApiError(error) ? error.validation.items?.[0] : undefined;
      if (Object.keys(errors).length > 0) setServerErrors(errors);
      // A refusal of the save as a whole (two most selected at once) says why.
      else if (whole) notify.danger(whole);
      else notifyRequestError(error);
    } finally {
      setSaving(false);
    }
  };

  const chooseCurrency = (next: string) => {
    setSearch(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.set('currency', next);
        return params;
      },
      { replace: true },
    );
  };

  const emptyText = tab.bundlesOnly
    ? EMPTY_TEXTS.bundles
    : tab.kind === 'addons'
      ? EMPTY_TEXTS.addons
      : EMPTY_TEXTS.plans;

  return (
    <div ref={rootRef} className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={currencyId} className="text-sm font-medium text-slate-800">
            {t('staff_plans.currency')}
          </label>
          <select
            id={currencyId}
            value={currency}
            onChange={(event) => chooseCurrency(event.target.value)}
            className="h-10 min-w-32 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
          >
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <p role="status" className="text-sm text-amber-800" data-testid="unsaved-status">
            {dirty ? t('staff_plans.unsaved') : ''}
          </p>
          <Button variant="secondary" onClick={discard} disabled={!dirty || saving}>
            {t('staff_plans.discard')}
          </Button>
          <Button onClick={() => void submit()} loading={saving} disabled={!dirty}>
            {t('staff.kit.save')}
          </Button>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        {t('staff_plans.preview_hint')}{' '}
        <RouteLink
          name="order2"
          target="_blank"
          rel="noopener"
          className="text-brand-700 underline-offset-2 hover:underline"
        >
          {t('staff_plans.open_order_page')}
        </RouteLink>
      </p>
      {groups.length === 0 ? (
        <EmptyState title={t(emptyText, { currency })} text={t('staff_plans.empty.text')} />
      ) : (
        groups.map((group, groupIndex) => {
          const service = services.find((item) => item.service_id === group.serviceId);
          const serviceName = t(SERVICE_LABELS[group.serviceId]);
          const order = draft.order[groupIndex] ?? [];
          const products = order.flatMap((id) => productsById.get(id) ?? []);
          const radioGroup = tab.mostSelected
            ? `most-selected-${group.serviceId}-${currency}`
            : undefined;
          const headingId = `plans-group-${group.serviceId}`;
          return (
            <section
              key={group.serviceId}
              aria-labelledby={headingId}
              className="flex flex-col gap-3"
            >
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h2 id={headingId} className="text-base font-semibold text-slate-900">
                  {t('staff_plans.group_title', { service: serviceName, currency })}
                </h2>
                {radioGroup !== undefined && (
                  <label className="inline-flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="radio"
                      name={radioGroup}
                      checked={order.every((id) => !draft.rows[id]?.as_most_selected)}
                      onChange={() => clearMostSelected(groupIndex)}
                      disabled={saving}
                      className="size-4 accent-brand-500"
                    />
                    {t('staff_plans.no_most_selected')}
                  </label>
                )}
              </div>
              {service !== undefined && !service.selling && (
                <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  {t('staff_plans.not_selling')}
                </p>
              )}
              <SortableList
                items={products}
                idOf={(product) => product.product_id}
                nameOf={(product) => product.name}
                label={t('staff_plans.list_label', { service: serviceName, currency })}
                onMove={moveTo(groupIndex)}
                announce={announce}
                texts={SORT_TEXTS}
                disabled={saving}
                renderItem={(product) => {
                  const row = draft.rows[product.product_id];
                  if (!row) return null;
                  const problem = showProblems ? problems.get(product.product_id) : undefined;
                  return (
                    <PlanRow
                      product={product}
                      row={row}
                      onChange={patchRow(groupIndex, product.product_id)}
                      mostSelectedGroup={radioGroup}
                      included={product.includable_product_id.flatMap(
                        (id) => included?.get(id) ?? [],
                      )}
                      error={serverErrors[product.product_id] ?? problem}
                      lang={lang}
                      disabled={saving}
                    />
                  );
                }}
              />
            </section>
          );
        })
      )}
      <div
        aria-live="assertive"
        aria-atomic="true"
        className="sr-only"
        data-testid="plans-announcer"
      >
        {announcement.text}
        {/* The same words twice in a row are still read out. */}
        {announcement.count % 2 === 0 ? '' : '\u00a0'}
      </div>
    </div>
  );
}

/** The server's word on an old price (`items.3.amount_old`), under that product's field. */
function rowErrors(error: unknown, sent: readonly ProductMassChange[]): Record<number, string> {
  const errors: Record<number, string> = {};
  if (!isApiError(error)) return errors;
  for (const [field, messages] of Object.entries(error.validation)) {
    const match = /^items\.(\d+)\.amount_old$/.exec(field);
    const change = match ? sent[Number(match[1])] : undefined;
    const message = messages[0];
    if (change && message && errors[change.product_id] === undefined) {
      errors[change.product_id] = message;
    }
  }
  return errors;
}
