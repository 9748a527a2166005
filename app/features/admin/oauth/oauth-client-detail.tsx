import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminOAuthClient } from '#shared/contracts/admin/oauth-clients.ts';
import { useLang } from '../../auth/use-lang.ts';
import { formatDateTime } from '../kit/format.ts';
import { grantLabel } from './oauth-client-form.tsx';

/** A client's status as a badge: active, or disabled (refused everywhere). */
export function ClientStatusBadge({ client }: { client: AdminOAuthClient }) {
  const { t } = useTranslation();
  const disabled = client.disabled_at !== null;
  return (
    <span
      data-testid="client-status"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${disabled ? 'bg-red-100 text-red-800' : 'bg-emerald-100 text-emerald-800'}`}
    >
      {t(disabled ? 'staff_oauth.status.disabled' : 'staff_oauth.status.active')}
    </span>
  );
}

function Codes({ items }: { items: readonly string[] }) {
  if (items.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item) => (
        <li key={item}>
          <code className="text-xs break-all text-slate-800">{item}</code>
        </li>
      ))}
    </ul>
  );
}

/** Everything staff set on a client and its state; whether it has a secret, never the secret. */
export function OAuthClientDetail({ client }: { client: AdminOAuthClient }) {
  const { t } = useTranslation();
  const lang = useLang();
  const rows: [string, ReactNode][] = [
    [
      'client_id',
      <code key="id" className="text-xs break-all" data-testid="detail-client-id">
        {client.client_id}
      </code>,
    ],
    ['status', <ClientStatusBadge key="status" client={client} />],
    ['type', t(`staff_oauth.types.${client.type}`)],
    ['first_party', t(client.first_party ? 'staff_oauth.yes' : 'staff_oauth.no')],
  ];
  if (client.type === 'confidential') {
    rows.push([
      'secret',
      <span key="secret" data-testid="secret-state">
        {client.has_secret ? t('staff_oauth.secret.set') : t('staff_oauth.secret.none')}
        {client.secret_rotated_at &&
          ` · ${t('staff_oauth.secret.changed', { date: formatDateTime(client.secret_rotated_at, lang) })}`}
      </span>,
    ]);
  }
  rows.push(
    ['redirect_uris', <Codes key="r" items={client.redirect_uris} />],
    ['post_logout_redirect_uris', <Codes key="p" items={client.post_logout_redirect_uris} />],
    ['grant_types', client.grant_types.map((grant) => t(grantLabel(grant))).join(', ')],
    ['scopes', <Codes key="s" items={client.scopes} />],
    ['logo_uri', client.logo_uri ? <Codes key="l" items={[client.logo_uri]} /> : '—'],
    ['grants', String(client.grants)],
    ['created_at', formatDateTime(client.created_at, lang)],
  );
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([field, value]) => (
        <div key={field} className="contents">
          <dt className="text-slate-500">{t(`staff_oauth.fields.${field}`)}</dt>
          <dd className="min-w-0 text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
