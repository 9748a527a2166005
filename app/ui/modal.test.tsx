import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { MODAL_OPENED_CLASS, Modal } from './modal.tsx';
import { closeAllModals, isModalOpen, openModal, useModal } from './modal-flags.ts';
import { Select } from './select.tsx';

const bodyHasClass = () => document.body.classList.contains(MODAL_OPENED_CLASS);

function Nested() {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(true);
  return (
    <Modal open={outer} onOpenChange={setOuter} title="Outer">
      <button type="button" onClick={() => setOuter(false)}>
        close outer
      </button>
      <Modal open={inner} onOpenChange={setInner} title="Inner">
        <button type="button" onClick={() => setInner(false)}>
          close inner
        </button>
      </Modal>
    </Modal>
  );
}

function OpenedByButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Remove device
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Remove device?">
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </Modal>
    </>
  );
}

function FlaggedModal() {
  return (
    <Modal {...useModal('card-delete')} title="Delete card" description="This cannot be undone.">
      <Select
        aria-label="Reason"
        options={[{ value: 1, name: 'Lost' }]}
        value={null}
        onSelect={() => {}}
      />
    </Modal>
  );
}

afterEach(() => closeAllModals());

describe('Modal', () => {
  it('is a labelled dialog and marks the body while open', async () => {
    const screen = await render(<FlaggedModal />);
    expect(bodyHasClass()).toBe(false);
    openModal('card-delete');
    const dialog = screen.getByRole('dialog', { name: 'Delete card' });
    await expect.element(dialog).toBeVisible();
    await expect.element(dialog).toHaveAccessibleDescription('This cannot be undone.');
    expect(bodyHasClass()).toBe(true);
    await screen.getByRole('button', { name: 'Close' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(isModalOpen('card-delete')).toBe(false);
    expect(bodyHasClass()).toBe(false);
  });

  it('closes on Escape', async () => {
    const screen = await render(<FlaggedModal />);
    openModal('card-delete');
    await expect.element(screen.getByRole('dialog')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    expect(isModalOpen('card-delete')).toBe(false);
  });

  it('lets Escape close an open dropdown first', async () => {
    const screen = await render(<FlaggedModal />);
    openModal('card-delete');
    const combobox = screen.getByRole('combobox', { name: 'Reason' });
    await combobox.click();
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    await expect.element(combobox).toHaveAttribute('aria-expanded', 'false');
    await expect.element(screen.getByRole('dialog')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the body class until the last nested modal closes', async () => {
    const screen = await render(<Nested />);
    await expect.element(screen.getByRole('dialog', { name: 'Inner' })).toBeVisible();
    expect(bodyHasClass()).toBe(true);
    await screen.getByRole('button', { name: 'close inner' }).click();
    await expect.element(screen.getByRole('dialog', { name: 'Inner' })).not.toBeInTheDocument();
    expect(bodyHasClass()).toBe(true);
    await screen.getByRole('button', { name: 'close outer' }).click();
    await expect.element(screen.getByRole('dialog', { name: 'Outer' })).not.toBeInTheDocument();
    expect(bodyHasClass()).toBe(false);
  });

  it('removes the class when an open modal unmounts', async () => {
    const screen = await render(<Nested />);
    await expect.element(screen.getByRole('dialog', { name: 'Inner' })).toBeVisible();
    await screen.unmount();
    expect(bodyHasClass()).toBe(false);
  });

  it('gives focus back to the button that opened it', async () => {
    const screen = await render(<OpenedByButton />);
    const opener = screen.getByRole('button', { name: 'Remove device' });
    await opener.click();
    await expect.element(screen.getByRole('dialog', { name: 'Remove device?' })).toBeVisible();
    await screen.getByRole('button', { name: 'Cancel' }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    await expect.element(opener).toHaveFocus();

    await opener.click();
    await expect.element(screen.getByRole('dialog')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(opener).toHaveFocus();
  });

  it('cannot be dismissed while not dismissible', async () => {
    const onOpenChange = vi.fn();
    const screen = await render(
      <Modal open onOpenChange={onOpenChange} title="Busy" dismissible={false}>
        <button type="button">working</button>
      </Modal>,
    );
    await expect.element(screen.getByRole('dialog', { name: 'Busy' })).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
