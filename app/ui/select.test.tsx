import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { Select, type SelectOption } from './select.tsx';

const COUNTRIES: SelectOption<string>[] = [
  { value: 'fr', name: 'France' },
  { value: 'de', name: 'Germany' },
  { value: 'it', name: 'Italy', disabled: true },
  { value: 'nl', name: 'Netherlands', label: 'EU' },
];

const GROUPED: SelectOption<string>[] = [
  { value: 'eu', name: 'Europe', options: COUNTRIES.slice(0, 2) },
  { value: 'am', name: 'Americas', options: [{ value: 'us', name: 'United States' }] },
];

function Single({ options = COUNTRIES }: { options?: SelectOption<string>[] }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <p>outside</p>
      <Select label="Country" options={options} value={value} onSelect={setValue} />
      <output>{value ?? 'none'}</output>
    </>
  );
}

function focusCombobox(element: Element) {
  (element as HTMLElement).focus();
}

describe('Select', () => {
  it('shows the default placeholder and toggles on click', async () => {
    const screen = await render(<Single />);
    const combobox = screen.getByRole('combobox', { name: 'Country' });
    await expect.element(combobox).toHaveTextContent('Select value');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'false');
    await combobox.click();
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'true');
    await expect.element(screen.getByRole('listbox', { name: 'Country' })).toBeVisible();
    await combobox.click();
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'false');
    await expect.element(screen.getByRole('listbox')).not.toBeInTheDocument();
  });

  it("shows 'No options' for an empty list", async () => {
    const screen = await render(<Single options={[]} />);
    await screen.getByRole('combobox').click();
    await expect.element(screen.getByText('No options')).toBeVisible();
  });

  it('closes after a single choice and shows the chosen name', async () => {
    const screen = await render(<Single />);
    const combobox = screen.getByRole('combobox');
    await combobox.click();
    await screen.getByRole('option', { name: 'Germany' }).click();
    await expect.element(screen.getByRole('listbox')).not.toBeInTheDocument();
    await expect.element(combobox).toHaveTextContent('Germany');
    await expect.element(screen.getByRole('status')).toHaveTextContent('de');
    await expect.element(combobox).toHaveFocus();
    await combobox.click();
    await expect
      .element(screen.getByRole('option', { name: 'Germany' }))
      .toHaveAttribute('aria-selected', 'true');
  });

  it('closes on an outside click', async () => {
    const screen = await render(<Single />);
    await screen.getByRole('combobox').click();
    await expect.element(screen.getByRole('listbox')).toBeVisible();
    await screen.getByText('outside').click();
    await expect.element(screen.getByRole('listbox')).not.toBeInTheDocument();
  });

  it('ignores disabled options', async () => {
    const onSelect = vi.fn();
    const screen = await render(
      <Select aria-label="Country" options={COUNTRIES} value={null} onSelect={onSelect} />,
    );
    await screen.getByRole('combobox').click();
    const italy = screen.getByRole('option', { name: 'Italy' });
    await expect.element(italy).toHaveAttribute('aria-disabled', 'true');
    await italy.click({ force: true });
    expect(onSelect).not.toHaveBeenCalled();
    await expect.element(screen.getByRole('listbox')).toBeVisible();
  });

  it('in multi mode emits delete for a chosen option, select otherwise, and stays open', async () => {
    const onSelect = vi.fn();
    const onDelete = vi.fn();
    const screen = await render(
      <Select
        multiple
        aria-label="Countries"
        options={COUNTRIES}
        value={['fr', 'nl']}
        onSelect={onSelect}
        onDelete={onDelete}
      />,
    );
    const combobox = screen.getByRole('combobox');
    await expect.element(combobox).toHaveTextContent('France, Netherlands');
    await combobox.click();
    await expect
      .element(screen.getByRole('listbox'))
      .toHaveAttribute('aria-multiselectable', 'true');
    await screen.getByRole('option', { name: 'France' }).click();
    expect(onDelete).toHaveBeenCalledWith('fr');
    expect(onSelect).not.toHaveBeenCalled();
    await screen.getByRole('option', { name: 'Germany' }).click();
    expect(onSelect).toHaveBeenCalledWith('de');
    await expect.element(screen.getByRole('listbox')).toBeVisible();
  });

  it('closes after a single choice only when closeOnSelect allows', async () => {
    const screen = await render(
      <Select
        aria-label="Country"
        options={COUNTRIES}
        value={null}
        onSelect={() => {}}
        closeOnSelect={false}
      />,
    );
    await screen.getByRole('combobox').click();
    await screen.getByRole('option', { name: 'France' }).click();
    await expect.element(screen.getByRole('listbox')).toBeVisible();
  });

  it('renders groups, and in accordion mode collapses and expands them', async () => {
    const plain = await render(
      <Select aria-label="Region" options={GROUPED} value={null} onSelect={() => {}} />,
    );
    await plain.getByRole('combobox').click();
    await expect.element(plain.getByRole('group', { name: 'Europe' })).toBeVisible();
    await expect.element(plain.getByRole('option', { name: 'United States' })).toBeVisible();
    await plain.unmount();

    const screen = await render(
      <Select accordion aria-label="Region" options={GROUPED} value={null} onSelect={() => {}} />,
    );
    await screen.getByRole('combobox').click();
    await expect.element(screen.getByRole('option', { name: 'France' })).not.toBeInTheDocument();
    await screen.getByText('Europe').click();
    await expect.element(screen.getByRole('group', { name: 'Europe' })).toBeVisible();
    await expect.element(screen.getByRole('option', { name: 'France' })).toBeVisible();
    await expect
      .element(screen.getByRole('option', { name: 'United States' }))
      .not.toBeInTheDocument();
    await screen.getByText('Europe').click();
    await expect.element(screen.getByRole('option', { name: 'France' })).not.toBeInTheDocument();
  });

  it('opens the group of the option the arrow keys reach in accordion mode', async () => {
    const screen = await render(
      <Select accordion aria-label="Region" options={GROUPED} value={null} onSelect={() => {}} />,
    );
    const combobox = screen.getByRole('combobox');
    focusCombobox(combobox.element());
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(screen.getByRole('option', { name: 'France' })).toBeVisible();
    await userEvent.keyboard('{End}');
    const us = screen.getByRole('option', { name: 'United States' });
    await expect.element(us).toBeVisible();
    await expect.element(combobox).toHaveAttribute('aria-activedescendant', us.element().id);
  });

  it('supports the keyboard with aria-activedescendant', async () => {
    const screen = await render(<Single />);
    const combobox = screen.getByRole('combobox');
    focusCombobox(combobox.element());
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'true');
    const active = () => combobox.element().getAttribute('aria-activedescendant');
    const idOf = (name: string) => screen.getByRole('option', { name }).element().id;
    await expect.poll(active).toBe(idOf('France'));
    await userEvent.keyboard('{ArrowDown}');
    await expect.poll(active).toBe(idOf('Germany'));
    // Italy is disabled, so the next stop is the Netherlands.
    await userEvent.keyboard('{ArrowDown}');
    await expect.poll(active).toBe(idOf('Netherlands'));
    await userEvent.keyboard('{Home}');
    await expect.poll(active).toBe(idOf('France'));
    await userEvent.keyboard('{End}');
    await expect.poll(active).toBe(idOf('Netherlands'));
    await userEvent.keyboard('{ArrowUp}');
    await expect.poll(active).toBe(idOf('Germany'));
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByRole('status')).toHaveTextContent('de');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'false');
    await expect.element(combobox).not.toHaveAttribute('aria-activedescendant');

    await userEvent.keyboard(' ');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(active).toBe(idOf('Germany'));
    await userEvent.keyboard('n');
    await expect.poll(active).toBe(idOf('Netherlands'));
    await userEvent.keyboard('{Escape}');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'false');
    await expect.element(combobox).toHaveFocus();
    await expect.element(screen.getByRole('status')).toHaveTextContent('de');
  });

  it('shows an error under the field, the default one for true', async () => {
    const screen = await render(
      <Select label="Country" options={COUNTRIES} value={null} onSelect={() => {}} error />,
    );
    const combobox = screen.getByRole('combobox');
    await expect.element(combobox).toHaveAttribute('aria-invalid', 'true');
    await expect.element(combobox).toHaveAccessibleDescription('This field is required.');
  });

  it('draws options 30 px high with 8 px corners and the #dfe1e6 border (§9)', async () => {
    const screen = await render(<Single />);
    const combobox = screen.getByRole('combobox');
    await combobox.click();
    const option = screen.getByRole('option', { name: 'France' }).element();
    expect(option.getBoundingClientRect().height).toBe(30);
    expect(getComputedStyle(option).borderRadius).toBe('8px');
    expect(getComputedStyle(combobox.element()).borderColor).toBe('rgb(223, 225, 230)');
  });
});
