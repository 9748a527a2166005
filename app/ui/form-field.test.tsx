import i18next from 'i18next';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { ApiError } from '../api/api-error.ts';
import { applyApiErrors } from './api-form-errors.ts';
import { Button } from './button.tsx';
import { FormError } from './form-field.tsx';
import { TextInput } from './text-input.tsx';

interface Profile {
  name: string;
  email: string;
}

// A form that fails with the given error, the way a screen would use the kit.
function ProfileForm({ failure }: { failure: unknown }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Profile>({ defaultValues: { name: 'Ann', email: 'ann@example.com' } });
  const [formError, setFormError] = useState<string>();
  const submit = handleSubmit(async () => {
    setFormError(applyApiErrors(failure, setError, ['name', 'email']));
  });
  return (
    <form noValidate onSubmit={submit}>
      <FormError message={formError} />
      <TextInput
        label="Name"
        hint="As shown to others"
        {...register('name')}
        error={errors.name?.message}
      />
      <TextInput
        label="Email"
        type="email"
        required
        {...register('email')}
        error={errors.email?.message}
      />
      <Button type="submit">Save</Button>
    </form>
  );
}

const t = (key: string) => i18next.t(key);

describe('form fields and server errors', () => {
  it('labels inputs and describes them by their hint', async () => {
    const screen = await render(<ProfileForm failure={undefined} />);
    const name = screen.getByLabelText('Name');
    await expect.element(name).toHaveValue('Ann');
    await expect.element(name).toHaveAccessibleDescription('As shown to others');
    await expect.element(screen.getByLabelText('Email')).toHaveAttribute('aria-required', 'true');
  });

  it('shows the first validation message under each field (§5)', async () => {
    const failure = new ApiError(422, 'validation_failed', {
      validation: {
        email: ['input_errors.email_is_incorrect', 'input_errors.field_is_required'],
        name: ['input_errors.field_is_too_long'],
      },
    });
    const screen = await render(<ProfileForm failure={failure} />);
    await screen.getByRole('button', { name: 'Save' }).click();
    const email = screen.getByLabelText('Email');
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');
    await expect.element(email).toHaveAccessibleDescription(t('input_errors.email_is_incorrect'));
    await expect.element(email).toHaveFocus();
    await expect
      .element(screen.getByLabelText('Name'))
      .toHaveAccessibleDescription(t('input_errors.field_is_too_long'));
    await expect
      .element(screen.getByText(t('input_errors.field_is_required')))
      .not.toBeInTheDocument();
    await expect.element(screen.getByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the first info message as a form error', async () => {
    const failure = new ApiError(409, 'conflict', {
      info: ['toasts.email_change_failed_title', 'toasts.email_change_failed_text'],
    });
    const screen = await render(<ProfileForm failure={failure} />);
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent('Unable to change email address.');
    await expect.element(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('shows a message for a field the form lacks as a form error', async () => {
    const failure = new ApiError(422, 'validation_failed', {
      validation: { _: ['input_errors.field_is_invalid'] },
    });
    const screen = await render(<ProfileForm failure={failure} />);
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect
      .element(screen.getByRole('alert'))
      .toHaveTextContent(t('input_errors.field_is_invalid'));
  });

  it("falls back to the code's message, and logs what is not a request error", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const screen = await render(<ProfileForm failure={new ApiError(503, 'unavailable')} />);
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByRole('alert')).toHaveTextContent(t('errors.unavailable'));
    await screen.unmount();

    const bug = new TypeError('boom');
    const other = await render(<ProfileForm failure={bug} />);
    await other.getByRole('button', { name: 'Save' }).click();
    await expect.element(other.getByRole('alert')).toHaveTextContent(t('errors.internal'));
    expect(logged).toHaveBeenCalledWith(bug);
    logged.mockRestore();
  });

  it('shows nothing for a cancelled request', async () => {
    const screen = await render(
      <ProfileForm failure={new DOMException('aborted', 'AbortError')} />,
    );
    await screen.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByRole('alert')).not.toBeInTheDocument();
  });
});
