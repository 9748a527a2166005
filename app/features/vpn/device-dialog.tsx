import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useState } from 'react';
import { type Control, Controller, type FieldValues, type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { deviceCreateRequest, type VpnDevice } from '#shared/contracts/vpn.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import { applyApiErrors } from '../../ui/api-form-errors.ts';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { Modal } from '../../ui/modal.tsx';
import { TextInput } from '../../ui/text-input.tsx';
import { notify } from '../../ui/toast.tsx';
import { ConfigView } from './config-view.tsx';
import { LocationSelect } from './location-select.tsx';
import { renameDevice, type ShownConfig, useKeyedCalls, useVpnCache } from './vpn-api.ts';

/** What the devices dialog shows: a form, or a configuration just made. */
export type DeviceDialogState =
  | { kind: 'add' }
  | { kind: 'move'; device: VpnDevice }
  | { kind: 'rename'; device: VpnDevice }
  | { kind: 'config'; shown: ShownConfig };

const addSchema = deviceCreateRequest.pick({ name: true, location: true });
const moveSchema = deviceCreateRequest.pick({ location: true });
const renameSchema = deviceCreateRequest.pick({ name: true });

/**
 * One dialog for adding, moving and renaming a device, which turns into the configuration
 * once a key pair was made. Closing it drops that state, and with it the private key.
 */
export function DeviceDialog({
  state,
  onState,
}: {
  state: DeviceDialogState | null;
  onState: (next: DeviceDialogState | null) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const close = () => onState(null);
  const showConfig = (shown: ShownConfig) => onState({ kind: 'config', shown });

  let title: ReactNode = '';
  let description: ReactNode;
  let body: ReactNode = null;
  switch (state?.kind) {
    case 'add':
      title = t('vpn.form.add_title');
      body = <AddForm onBusy={setBusy} onDone={showConfig} onCancel={close} />;
      break;
    case 'move':
      title = t('vpn.form.move_title', { name: state.device.name });
      description = t('vpn.form.move_text');
      body = (
        <MoveForm device={state.device} onBusy={setBusy} onDone={showConfig} onCancel={close} />
      );
      break;
    case 'rename':
      title = t('vpn.form.rename_title', { name: state.device.name });
      body = <RenameForm device={state.device} onBusy={setBusy} onDone={close} onCancel={close} />;
      break;
    case 'config':
      title = t('vpn.config.title', { name: state.shown.device.name });
      body = <ConfigView shown={state.shown} onDone={close} />;
      break;
    default:
      break;
  }
  return (
    <Modal
      open={state !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={title}
      description={description}
      size={state?.kind === 'config' ? 'lg' : 'md'}
      // The short forms let the location list hang below the dialog rather than be cut off
      // by its scroll box; the configuration, which may be taller than a phone, keeps it.
      className={state?.kind === 'add' || state?.kind === 'move' ? 'overflow-visible!' : ''}
      dismissible={!busy}
    >
      {body}
    </Modal>
  );
}

interface FormProps<T> {
  onBusy: (busy: boolean) => void;
  onDone: (result: T) => void;
  onCancel: () => void;
}

function FormButtons({
  submit,
  busy,
  onCancel,
}: {
  submit: string;
  busy: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="mt-2 flex flex-wrap justify-end gap-3">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        {t('vpn.form.cancel')}
      </Button>
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </div>
  );
}

function KeysNote() {
  const { t } = useTranslation();
  return (
    <p className="flex items-start gap-2 text-xs text-slate-600">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        className="size-4 shrink-0"
      >
        <path d="M14 10a4 4 0 1 0-3.5 4L9 15.5V18H7v2H4v-3l6.5-6.5A4 4 0 0 0 14 10z" />
      </svg>
      {t('vpn.form.keys_note')}
    </p>
  );
}

/** A new device: its name and location; the key pair is made here when it is sent. */
function AddForm({ onBusy, onDone, onCancel }: FormProps<ShownConfig>) {
  const { t } = useTranslation();
  const keyed = useKeyedCalls();
  const cache = useVpnCache();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(addSchema),
    defaultValues: { name: '', location: FASTEST },
  });

  const submit = handleSubmit(async ({ name, location }) => {
    setFormError(undefined);
    onBusy(true);
    try {
      const shown = await keyed.create(name, location);
      cache.put(shown.device);
      void cache.refresh();
      notify.success('vpn.toasts.added', { values: { name: shown.device.name } });
      onDone(shown);
    } catch (error) {
      // The key pair's public half is the one field not on the form: its message goes above.
      setFormError(applyApiErrors(error, setError, ['name', 'location']));
    } finally {
      onBusy(false);
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid="vpn-add-form">
      <TextInput
        label={t('vpn.form.name')}
        hint={t('vpn.form.name_hint')}
        autoComplete="off"
        maxLength={64}
        required
        autoFocus
        {...register('name')}
        error={errors.name?.message}
      />
      <LocationField control={control} />
      <KeysNote />
      <FormError message={formError} />
      <FormButtons submit={t('vpn.form.add')} busy={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

/** The location picker as a field of the form: its value and its error are the form's. */
function LocationField<F extends FieldValues & { location: string }>({
  control,
}: {
  control: Control<F>;
}) {
  return (
    <Controller
      control={control}
      name={'location' as Path<F>}
      render={({ field, fieldState }) => (
        <LocationSelect
          value={field.value}
          onChange={field.onChange}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** Another location, with a new key pair so the answer is a complete configuration. */
function MoveForm({
  device,
  onBusy,
  onDone,
  onCancel,
}: FormProps<ShownConfig> & { device: VpnDevice }) {
  const { t } = useTranslation();
  const keyed = useKeyedCalls();
  const cache = useVpnCache();
  const [formError, setFormError] = useState<string>();
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm({
    resolver: zodResolver(moveSchema),
    defaultValues: { location: device.location },
  });

  const submit = handleSubmit(async ({ location }) => {
    setFormError(undefined);
    onBusy(true);
    try {
      const shown = await keyed.move(device.device_id, location);
      cache.put(shown.device);
      void cache.refresh();
      notify.success('vpn.toasts.moved', { values: { name: shown.device.name } });
      onDone(shown);
    } catch (error) {
      setFormError(applyApiErrors(error, setError, ['location']));
    } finally {
      onBusy(false);
    }
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid="vpn-move-form">
      <LocationField control={control} />
      <KeysNote />
      <FormError message={formError} />
      <FormButtons submit={t('vpn.form.move')} busy={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function RenameForm({ device, onBusy, onDone, onCancel }: FormProps<void> & { device: VpnDevice }) {
  const { t } = useTranslation();
  const cache = useVpnCache();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(renameSchema), defaultValues: { name: device.name } });

  const submit = handleSubmit(async ({ name }) => {
    setFormError(undefined);
    onBusy(true);
    try {
      const answer = await renameDevice(device.device_id, name);
      cache.put(answer.device);
      notify.success('vpn.toasts.renamed', { values: { name: answer.device.name } });
      onDone();
    } catch (error) {
      setFormError(applyApiErrors(error, setError, ['name']));
    } finally {
      onBusy(false);
    }
  });

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
      data-testid="vpn-rename-form"
    >
      <TextInput
        label={t('vpn.form.name')}
        autoComplete="off"
        maxLength={64}
        required
        autoFocus
        {...register('name')}
        error={errors.name?.message}
      />
      <FormError message={formError} />
      <FormButtons submit={t('vpn.form.save')} busy={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
