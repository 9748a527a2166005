import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isCancelled, messageKeyOf } from '../api/api-error.ts';
import { Button } from './button.tsx';
import {
  answerConfirm,
  type ConfirmIcon,
  type ConfirmOptions,
  type PendingConfirm,
  useConfirmHost,
} from './confirm.ts';
import { FormError } from './form-field.tsx';
import { Modal } from './modal.tsx';
import { TextInput } from './text-input.tsx';

export interface ConfirmDialogProps<D = unknown> extends ConfirmOptions<D> {
  open: boolean;
  /** True once confirmed (and onConfirm succeeded), false when cancelled or closed. */
  onResult: (confirmed: boolean) => void;
}

const REQUIRED = 'input_errors.field_is_required';

function passwordMessage(error: ApiError): string {
  const validation = error.validation.password?.[0] ?? Object.values(error.validation)[0]?.[0];
  return error.info[0] ?? validation ?? messageKeyOf(error.code);
}

export function ConfirmDialog<D = unknown>({
  open,
  onResult,
  title,
  text,
  actionName,
  yes = {},
  no = {},
  icon,
  password: withPassword = false,
  data,
  onConfirm,
}: ConfirmDialogProps<D>) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  const reset = () => {
    setPassword('');
    setFieldError(undefined);
    setFormError(undefined);
    setBusy(false);
  };
  // §2: closing resets the password and the loading state, however the dialog was closed.
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (!open) reset();
  }

  const finish = (confirmed: boolean) => {
    reset();
    onResult(confirmed);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (withPassword && password.trim() === '') {
      setFieldError(REQUIRED);
      passwordRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    setFormError(undefined);
    setBusy(true);
    try {
      await onConfirm?.(password, data, actionName);
    } catch (error) {
      setBusy(false);
      if (isCancelled(error)) return;
      if (!(error instanceof ApiError)) console.error(error);
      const message = error instanceof ApiError ? passwordMessage(error) : messageKeyOf('internal');
      if (withPassword) {
        setFieldError(message);
        passwordRef.current?.focus();
      } else {
        setFormError(message);
      }
      return;
    }
    finish(true);
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && finish(false)}
      title={
        <span className="flex items-center gap-3">
          {icon && <ConfirmIconBadge icon={icon} />}
          {title}
        </span>
      }
      description={text}
      size="sm"
      dismissible={!busy}
    >
      <form noValidate onSubmit={submit} data-action={actionName} className="flex flex-col gap-4">
        {withPassword && (
          <TextInput
            ref={passwordRef}
            type="password"
            name="password"
            autoComplete="current-password"
            label={t('ui.confirm.password')}
            placeholder={t('ui.confirm.password_placeholder')}
            required
            value={password}
            error={fieldError}
            onChange={(event) => {
              setPassword(event.target.value);
              if (fieldError) setFieldError(undefined);
            }}
          />
        )}
        <FormError message={formError} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button
            variant={no.variant ?? 'secondary'}
            className={no.className}
            loading={no.loading}
            disabled={no.disabled || busy}
            onClick={() => finish(false)}
          >
            {no.label ?? t('ui.confirm.no')}
          </Button>
          <Button
            type="submit"
            variant={yes.variant ?? (icon === 'danger' ? 'danger' : 'primary')}
            className={yes.className}
            loading={yes.loading || busy}
            disabled={yes.disabled}
          >
            {yes.label ?? t('ui.confirm.yes')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

const ICON_STYLES: Record<ConfirmIcon, { className: string; path: string }> = {
  danger: {
    className: 'bg-red-100 text-red-600',
    path: 'M10 6v5m0 3h.01M8.3 2.9 1.6 14.5A2 2 0 0 0 3.3 17.5h13.4a2 2 0 0 0 1.7-3L11.7 2.9a2 2 0 0 0-3.4 0Z',
  },
  warning: {
    className: 'bg-amber-100 text-amber-600',
    path: 'M10 6v5m0 3h.01M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z',
  },
  info: {
    className: 'bg-brand-50 text-brand-600',
    path: 'M10 9v5m0-8h.01M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z',
  },
  success: {
    className: 'bg-emerald-100 text-emerald-600',
    path: 'm6 10 3 3 5-6m4 3a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z',
  },
};

function ConfirmIconBadge({ icon }: { icon: ConfirmIcon }) {
  const { className, path } = ICON_STYLES[icon];
  return (
    <span
      aria-hidden="true"
      data-icon={icon}
      className={`flex size-10 shrink-0 items-center justify-center rounded-full ${className}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        className="size-5"
      >
        <path d={path} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/** Shows one pending confirm() question. */
export function PendingConfirmDialog({ request }: { request: PendingConfirm }) {
  return (
    <ConfirmDialog
      key={request.id}
      {...request.options}
      open
      onResult={(confirmed) => answerConfirm(request, confirmed)}
    />
  );
}

/** Mount once near the root, for confirm(). */
export function ConfirmHost() {
  const request = useConfirmHost();
  return request ? <PendingConfirmDialog request={request} /> : null;
}
