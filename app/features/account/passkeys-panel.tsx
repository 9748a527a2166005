import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '#shared/contracts/passkeys.ts';
import { webAuthnAvailable } from '../../lib/webauthn.ts';
import { Button } from '../../ui/button.tsx';
import { confirm } from '../../ui/confirm.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Modal } from '../../ui/modal.tsx';
import { Panel } from '../../ui/panel.tsx';
import { QueryFailure } from '../../ui/query-failure.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { AddPasskeyDialog } from './add-passkey-dialog.tsx';
import { formatDeviceDate } from './devices-panel.tsx';
import { PasskeyNameForm } from './passkey-name-form.tsx';
import { passkeysApi, passkeysKey } from './passkeys-api.ts';
import { useAccount } from './use-account.ts';

/**
 * The security page's passkeys: each with its name, when it was added and last used; add
 * one (password, then the browser's ceremony, then its name), rename it, or remove it after
 * the password. A browser without WebAuthn gets no passkey controls at all.
 */
export function PasskeysPanel() {
  const [supported] = useState(webAuthnAvailable);
  return supported ? <Passkeys /> : null;
}

function Passkeys() {
  const { t, i18n } = useTranslation();
  const { user } = useAccount();
  const api = useMemo(() => passkeysApi(user.role), [user.role]);
  const queryClient = useQueryClient();
  const passkeys = useQuery({
    queryKey: [...passkeysKey, user.id],
    queryFn: ({ signal }) => api.list(signal),
  });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeysKey });

  // A closed dialog gives focus back to the button that opened it (the kit's modal has no
  // trigger to return to), so keyboard and screen reader users stay where they were.
  const opener = useRef<HTMLElement | null>(null);
  const openedFrom = (event: MouseEvent<HTMLElement>) => {
    opener.current = event.currentTarget;
  };
  useEffect(() => {
    if (adding || renaming) return;
    const element = opener.current;
    opener.current = null;
    if (!element) return;
    const timer = setTimeout(() => element.isConnected && element.focus(), 0);
    return () => clearTimeout(timer);
  }, [adding, renaming]);

  const remove = (passkey: Passkey) =>
    confirm({
      title: t('passkeys.remove_title', { name: passkey.name }),
      text: t('passkeys.remove_text'),
      icon: 'danger',
      password: true,
      actionName: 'passkey-remove',
      data: passkey,
      yes: { label: t('passkeys.remove') },
      onConfirm: async (password, target) => {
        if (!target) return;
        await api.remove(target.id, password);
        notify.success('passkeys.toasts.removed');
        await refresh();
      },
    });

  const date = (iso: string) => formatDeviceDate(iso, i18n.language);
  const items = passkeys.data?.items ?? [];

  return (
    <Panel
      id="account-passkeys"
      title={t('passkeys.title')}
      description={t('passkeys.subtitle')}
      actions={
        <Button
          onClick={(event) => {
            openedFrom(event);
            setAdding(true);
          }}
          disabled={!passkeys.isSuccess}
        >
          {t('passkeys.add')}
        </Button>
      }
    >
      {passkeys.isPending ? (
        <LoadingBlock />
      ) : passkeys.isError ? (
        <QueryFailure
          error={passkeys.error}
          onRetry={() => passkeys.refetch()}
          retryLabel={t('passkeys.retry')}
        />
      ) : items.length === 0 ? (
        <EmptyState className="py-6" title={t('passkeys.empty')} text={t('passkeys.empty_text')} />
      ) : (
        <ul
          className="divide-y divide-slate-100"
          aria-label={t('passkeys.list')}
          data-testid="passkeys"
        >
          {items.map((passkey) => (
            <li
              key={passkey.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-testid="passkey"
            >
              <div className="min-w-0">
                <p className="flex items-center gap-2 text-sm font-medium break-all text-slate-900">
                  {passkey.name}
                  {passkey.backed_up && (
                    <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                      {t('passkeys.synced')}
                    </span>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-slate-500">
                  {t('passkeys.added_on', { date: date(passkey.created_at) })}
                  {' · '}
                  {passkey.last_used_at
                    ? t('passkeys.last_used', { date: date(passkey.last_used_at) })
                    : t('passkeys.never_used')}
                </p>
              </div>
              <div className="flex shrink-0 gap-1">
                <Button
                  variant="ghost"
                  aria-label={t('passkeys.rename_named', { name: passkey.name })}
                  onClick={(event) => {
                    openedFrom(event);
                    setRenaming(passkey);
                  }}
                >
                  {t('passkeys.rename')}
                </Button>
                <Button
                  variant="ghost"
                  className="text-red-700 hover:bg-red-50"
                  aria-label={t('passkeys.remove_named', { name: passkey.name })}
                  onClick={() => remove(passkey)}
                >
                  {t('passkeys.remove')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddPasskeyDialog open={adding} onOpenChange={setAdding} api={api} onAdded={refresh} />
      <Modal
        open={renaming !== undefined}
        onOpenChange={(open) => !open && setRenaming(undefined)}
        title={t('passkeys.rename_title')}
        size="sm"
      >
        {renaming && (
          <PasskeyNameForm
            initial={renaming.name}
            onCancel={() => setRenaming(undefined)}
            onSubmit={async (name) => {
              await api.rename(renaming.id, name);
              notify.success('passkeys.toasts.renamed');
              setRenaming(undefined);
              await refresh();
            }}
          />
        )}
      </Modal>
    </Panel>
  );
}
