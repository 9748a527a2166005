import { useEffect, useSyncExternalStore } from 'react';
import type { ButtonVariant } from './button.tsx';
import { closeModal, type ModalName, openModal } from './modal-flags.ts';

// confirm() and its pending question, apart from the dialog itself: the shell can then load
// the dialog's code (Radix, forms) only when a question is first asked.

export type ConfirmIcon = 'danger' | 'warning' | 'info' | 'success';

/** §2 a dialog button: label (translated text), class, loading and disabled. */
export interface ConfirmButton {
  label?: string;
  className?: string;
  variant?: ButtonVariant;
  loading?: boolean;
  disabled?: boolean;
}

/** §2 Confirmation dialog fields; texts are translated strings. */
export interface ConfirmOptions<D = unknown> {
  title: string;
  text?: string;
  /** Names the confirmed action for the callback and for tests (data-action). */
  actionName?: string;
  yes?: ConfirmButton;
  no?: ConfirmButton;
  icon?: ConfirmIcon;
  /** Asks for the password; the yes callback runs only once the field is valid. */
  password?: boolean;
  /** Callback data, handed back to onConfirm. */
  data?: D;
  /** The §4 modal flag that reads as open while this question is (account-delete …). */
  modal?: ModalName;
  /**
   * The confirmed action; the yes button shows loading until it settles. If it throws an
   * ApiError, the message stays in the dialog (under the password field when there is one,
   * §8) and the user may try again or cancel.
   */
  onConfirm?: (password: string, data: D | undefined, actionName: string | undefined) => unknown;
}

// The imperative side: one pending question at a time, answered by the mounted host.
export interface PendingConfirm {
  id: number;
  options: ConfirmOptions<unknown>;
  resolve: (confirmed: boolean) => void;
}

let pending: PendingConfirm | null = null;
let nextId = 1;
let hosts = 0;
const listeners = new Set<() => void>();

function setPending(next: PendingConfirm | null) {
  pending = next;
  for (const listener of listeners) listener();
}

/**
 * Asks the user through the mounted host. Resolves false on cancel, true once confirmed and
 * onConfirm (if any) succeeded. A newer question cancels an older one.
 */
export function confirm<D = unknown>(options: ConfirmOptions<D>): Promise<boolean> {
  if (hosts === 0) {
    console.error('confirm() needs a mounted <ConfirmHost />');
    return Promise.resolve(false);
  }
  pending?.resolve(false);
  const { modal } = options;
  if (modal) openModal(modal);
  return new Promise<boolean>((resolve) => {
    const answer = (confirmed: boolean) => {
      if (modal) closeModal(modal);
      resolve(confirmed);
    };
    setPending({
      id: nextId++,
      options: options as unknown as ConfirmOptions<unknown>,
      resolve: answer,
    });
  });
}

export function answerConfirm(request: PendingConfirm, confirmed: boolean): void {
  request.resolve(confirmed);
  if (pending === request) setPending(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Registers the caller as the host that answers confirm(); returns the pending question. */
export function useConfirmHost(): PendingConfirm | null {
  const current = useSyncExternalStore(
    subscribe,
    () => pending,
    () => null,
  );
  useEffect(() => {
    hosts += 1;
    return () => {
      hosts -= 1;
      // Nobody is left to answer: the question counts as cancelled.
      if (hosts === 0 && pending) {
        pending.resolve(false);
        setPending(null);
      }
    };
  }, []);
  return current;
}
