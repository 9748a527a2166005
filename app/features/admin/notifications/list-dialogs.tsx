import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type AdminNotificationList,
  type EmpSendRequest,
  type EmpUpdateRequest,
  empEndpoints,
  empSendRequest,
  empUpdateRequest,
} from '#shared/contracts/notifications.ts';
import { call } from '../../../api/client.ts';
import { applyApiErrors } from '../../../ui/api-form-errors.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError, FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { TextInput } from '../../../ui/text-input.tsx';

const CONTROL =
  'w-full min-w-0 rounded-lg border border-[#dfe1e6] bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 aria-[invalid=true]:border-red-500';

interface DialogProps {
  list: AdminNotificationList;
  onClose: () => void;
  onDone: (message: string) => Promise<void>;
}

/** §4 "notification edit": name, description, visible, push; server errors under fields. */
export function EditListDialog({ list, onClose, onDone }: DialogProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<EmpUpdateRequest>({
    resolver: zodResolver(empUpdateRequest) as unknown as Resolver<EmpUpdateRequest>,
    defaultValues: {
      listUuid: list.listUuid,
      name: list.name,
      description: list.description,
      visible: list.visible,
      push: list.push,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    setFormError(undefined);
    try {
      await call(empEndpoints.update, { body });
      await onDone(t('staff_notifications.saved', { name: body.name }));
    } catch (error) {
      setFormError(
        applyApiErrors(error, form.setError, ['name', 'description', 'visible', 'push']),
      );
    }
  });
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('staff_notifications.edit_title')}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextInput
          label={t('staff_notifications.fields.name')}
          required
          error={errors.name?.message}
          {...form.register('name')}
        />
        <FormField
          label={t('staff_notifications.fields.description')}
          error={errors.description?.message}
        >
          {(control) => (
            <textarea {...control} rows={3} className={CONTROL} {...form.register('description')} />
          )}
        </FormField>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" {...form.register('visible')} />
          {t('staff_notifications.fields.visible')}
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" {...form.register('push')} />
          {t('staff_notifications.fields.push')}
        </label>
        <p className="text-xs text-slate-500">{t('staff_notifications.push_hint')}</p>
        <FormError message={formError} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('staff.kit.cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {t('staff_notifications.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** A message to a list: subject and Markdown body, confirmed with the recipient count. */
export function SendDialog({ list, onClose, onDone }: DialogProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string>();
  const form = useForm<EmpSendRequest>({
    resolver: zodResolver(empSendRequest) as unknown as Resolver<EmpSendRequest>,
    defaultValues: { listUuid: list.listUuid, subject: '', body: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    setFormError(undefined);
    const sure = await confirm({
      title: t('staff_notifications.send_confirm_title'),
      text: t('staff_notifications.send_confirm_text', {
        count: list.subscribers_count,
        name: list.name,
      }),
      icon: 'warning',
      actionName: 'send-to-list',
      yes: { label: t('staff_notifications.send') },
    });
    if (!sure) return;
    try {
      await call(empEndpoints.send, { body });
      await onDone(t('staff_notifications.queued', { name: list.name }));
    } catch (error) {
      setFormError(applyApiErrors(error, form.setError, ['listUuid', 'subject', 'body']));
    }
  });
  return (
    <Modal
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={t('staff_notifications.send_title', { name: list.name })}
      description={t('staff_notifications.send_text')}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextInput
          label={t('staff_notifications.fields.subject')}
          required
          error={errors.subject?.message}
          {...form.register('subject')}
        />
        <FormField
          label={t('staff_notifications.fields.body')}
          required
          error={errors.body?.message}
          hint={t('staff_notifications.body_hint')}
        >
          {(control) => (
            <textarea {...control} rows={10} className={CONTROL} {...form.register('body')} />
          )}
        </FormField>
        <FormError message={errors.listUuid?.message ?? formError} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('staff.kit.cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {t('staff_notifications.send')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
