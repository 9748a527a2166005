import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import type { DeviceCodeResponse } from '#shared/contracts/device-sign-in.ts';
import { requiredString } from '#shared/validation/required.ts';
import { RouteLink } from '../../layout/route-link.tsx';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FieldSlot, FormError } from '../../ui/form-field.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { AuthCard, linkClass } from '../auth/auth-card.tsx';
import { oauthApi } from './oauth-api.ts';
import { ScopeList } from './scope-list.tsx';

const codeForm = z.object({ user_code: requiredString(32) });
const nameForm = z.object({ device_name: requiredString(64) });

type Done = { kind: 'approved'; name: string } | { kind: 'denied' };

/**
 * /{lang}/device (RFC 8628): the page a TV or router sends its person to. The code comes in
 * the address (the QR code) or is typed; the person sees which app asks and for what,
 * names the device and confirms, or refuses. A plan without VPN access or a free device
 * slot cannot confirm: the page says why and where to change it.
 */
export function DeviceSignInPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [request, setRequest] = useState<DeviceCodeResponse>();
  const [done, setDone] = useState<Done>();

  if (done) {
    return (
      <AuthCard
        title={
          done.kind === 'approved' ? t('apps.device.approved_title') : t('apps.device.denied_title')
        }
        focusTitle
        footer={
          <RouteLink name="download" className={linkClass}>
            {t('apps.device.to_devices')}
          </RouteLink>
        }
      >
        <p className="text-sm text-slate-700" data-testid="device-done" role="status">
          {done.kind === 'approved'
            ? t('apps.device.approved_text', { name: done.name })
            : t('apps.device.denied_text')}
        </p>
      </AuthCard>
    );
  }
  if (request) {
    return (
      <ConfirmDevice request={request} onBack={() => setRequest(undefined)} onDone={setDone} />
    );
  }
  return <EnterCode initial={params.get('user_code') ?? ''} onFound={setRequest} />;
}

function EnterCode({
  initial,
  onFound,
}: {
  initial: string;
  onFound: (request: DeviceCodeResponse) => void;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(codeForm), defaultValues: { user_code: initial } });

  const submit = handleSubmit(async ({ user_code }) => {
    setFormError(undefined);
    try {
      onFound(await oauthApi.lookupDevice(user_code));
    } catch (error) {
      setFormError(applyApiErrors(error, setError, ['user_code']));
    }
  });

  // A code from the QR code is looked up at once: nothing to type.
  const looked = useRef(false);
  useEffect(() => {
    if (initial && !looked.current) {
      looked.current = true;
      void submit();
    }
  }, [initial, submit]);

  return (
    <AuthCard title={t('apps.device.title')} lead={t('apps.device.lead')}>
      <form noValidate onSubmit={submit} className="flex flex-col">
        <FieldSlot>
          <TextInput
            label={t('apps.device.code')}
            hint={t('apps.device.code_hint')}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            className="font-mono tracking-widest uppercase"
            required
            {...register('user_code')}
            error={errors.user_code?.message}
          />
        </FieldSlot>
        <FormError message={formError} className="mb-4" />
        <Button type="submit" loading={isSubmitting}>
          {t('apps.device.continue')}
        </Button>
      </form>
    </AuthCard>
  );
}

function ConfirmDevice({
  request,
  onBack,
  onDone,
}: {
  request: DeviceCodeResponse;
  onBack: () => void;
  onDone: (done: Done) => void;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const [denying, setDenying] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(nameForm), defaultValues: { device_name: '' } });
  const { vpn } = request;
  const blocked = !vpn.access
    ? t('apps.device.errors.no_access')
    : vpn.devices >= vpn.device_limit
      ? t('apps.device.errors.device_limit')
      : undefined;

  const approve = handleSubmit(async ({ device_name }) => {
    setFormError(undefined);
    try {
      await oauthApi.approveDevice({ user_code: request.user_code, device_name });
      onDone({ kind: 'approved', name: device_name.trim() });
    } catch (error) {
      setFormError(applyApiErrors(error, setError, ['device_name']));
    }
  });
  const deny = async () => {
    setDenying(true);
    setFormError(undefined);
    try {
      await oauthApi.denyDevice(request.user_code);
      onDone({ kind: 'denied' });
    } catch (error) {
      setFormError(applyApiErrors(error, setError, []));
    } finally {
      setDenying(false);
    }
  };

  return (
    <AuthCard
      title={t('apps.device.confirm_title', { app: request.client.name })}
      focusTitle
      lead={t('apps.device.confirm_lead', { code: request.user_code })}
    >
      <div className="flex flex-col gap-5">
        <section aria-labelledby="device-scopes">
          <h2 id="device-scopes" className="mb-2 text-sm font-medium text-slate-900">
            {t('apps.device.it_may')}
          </h2>
          <ScopeList scopes={request.scopes} />
        </section>
        <p className="text-sm text-slate-600" data-testid="device-slots">
          {t('apps.device.slots', { used: vpn.devices, limit: vpn.device_limit })}
        </p>
        {blocked ? (
          <div role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {blocked}{' '}
            <RouteLink name="download" className={linkClass}>
              {t('apps.device.manage_devices')}
            </RouteLink>
          </div>
        ) : (
          <form noValidate onSubmit={approve} className="flex flex-col">
            <FieldSlot>
              <TextInput
                label={t('apps.device.name')}
                hint={t('apps.device.name_hint')}
                maxLength={64}
                required
                {...register('device_name')}
                error={errors.device_name?.message}
              />
            </FieldSlot>
            <FormError message={formError} className="mb-4" />
            <Button type="submit" loading={isSubmitting}>
              {t('apps.device.approve')}
            </Button>
          </form>
        )}
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" loading={denying} onClick={() => void deny()}>
            {t('apps.device.deny')}
          </Button>
          <Button variant="ghost" onClick={onBack}>
            {t('apps.device.other_code')}
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
