import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAuthScreen } from '../../test/render-auth-screen.tsx';
import { SignUpPage } from './sign-up-page.tsx';

const t = (key: string) => i18next.t(key);
const RULES = [
  'More than 8 characters',
  'At least one letter',
  'At least one number',
  'At least one symbol',
];

async function open() {
  const { screen } = await renderAuthScreen(SignUpPage, '/en/signup');
  const field = (label: string) => screen.getByLabelText(label, { exact: true });
  const checklist = screen.getByRole('list', { name: 'Your password needs:' });
  const met = () =>
    checklist
      .getByRole('listitem')
      .all()
      .map((item) => item.element().getAttribute('data-met') === 'true');
  return { screen, field, checklist, met };
}

describe('sign-up screen', () => {
  it('ticks the §5 password rules off as the user types', async () => {
    const { field, checklist, met } = await open();
    for (const rule of RULES) {
      await expect.element(checklist.getByText(rule)).toBeVisible();
    }
    expect(met()).toEqual([false, false, false, false]);
    await field('Password').fill('abc');
    await expect.poll(met).toEqual([false, true, false, false]);
    await field('Password').fill('abc1');
    await expect.poll(met).toEqual([false, true, true, false]);
    await field('Password').fill('abc1!');
    await expect.poll(met).toEqual([false, true, true, true]);
    await field('Password').fill('abcdefg1!');
    await expect.poll(met).toEqual([true, true, true, true]);
    await expect
      .element(checklist.getByRole('listitem').filter({ hasText: 'More than 8 characters' }))
      .toHaveTextContent('More than 8 characters(done)');
  });

  it('says each required field is missing, leaves the optional name alone, focuses e-mail', async () => {
    const { screen, field } = await open();
    await screen.getByRole('button', { name: 'Create account' }).click();
    const required = t('input_errors.field_is_required');
    await expect.element(field('E-mail address')).toHaveAccessibleDescription(required);
    await expect.element(field('Password')).toHaveAccessibleDescription(required);
    await expect.element(field('Confirm password')).toHaveAccessibleDescription(required);
    await expect.element(field('Name (optional)')).not.toHaveAttribute('aria-invalid');
    await expect.element(field('E-mail address')).toHaveFocus();
  });

  it('shows a broken password rule and a confirmation that does not match', async () => {
    const { screen, field } = await open();
    await field('E-mail address').fill('ann@example.com');
    await field('Password').fill('abcdefgh1');
    await field('Confirm password').fill('abcdefgh2');
    await screen.getByRole('button', { name: 'Create account' }).click();
    await expect
      .element(field('Password'))
      .toHaveAccessibleDescription(t('input_errors.password_error_symbols'));
    await expect
      .element(field('Confirm password'))
      .toHaveAccessibleDescription(t('input_errors.passwords_dont_match'));
    await expect.element(field('Password')).toHaveFocus();
  });

  it('focuses the confirmation when it is the only thing wrong', async () => {
    const { screen, field } = await open();
    await field('E-mail address').fill('ann@example.com');
    await field('Password').fill('abcdefgh1!');
    await field('Confirm password').fill('abcdefgh1?');
    await screen.getByRole('button', { name: 'Create account' }).click();
    await expect
      .element(field('Confirm password'))
      .toHaveAccessibleDescription(t('input_errors.passwords_dont_match'));
    await expect.element(field('Confirm password')).toHaveFocus();
    await expect.element(field('Password')).not.toHaveAttribute('aria-invalid');
  });
});
