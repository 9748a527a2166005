import { useSyncExternalStore } from 'react';

/** §4 The named modals whose open state other parts of the app can read and toggle. */
export const MODAL_NAMES = [
  'account-delete',
  'avatar-delete',
  'card-create',
  'card-edit',
  'card-delete',
  'subscription-pause',
  'fix-payment-method',
  'two-factor-enable',
  'two-factor-disable',
  'recovery-codes',
  'device-logout',
  'other-devices-logout',
  'billing-address',
  'coupon-create',
  'product-create',
  'notification-edit',
] as const;
export type ModalName = (typeof MODAL_NAMES)[number];

let open: ReadonlySet<ModalName> = new Set();
const listeners = new Set<() => void>();

function publish(next: ReadonlySet<ModalName>) {
  open = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isModalOpen(name: ModalName): boolean {
  return open.has(name);
}

export function setModalFlag(name: ModalName, value: boolean): void {
  if (open.has(name) === value) return;
  const next = new Set(open);
  if (value) next.add(name);
  else next.delete(name);
  publish(next);
}

export const openModal = (name: ModalName): void => setModalFlag(name, true);
export const closeModal = (name: ModalName): void => setModalFlag(name, false);

/** Logging out resets the app store (§4), which closes every modal. */
export function closeAllModals(): void {
  if (open.size > 0) publish(new Set());
}

export function useModalFlag(name: ModalName): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open.has(name),
    () => false,
  );
}

/** Props for `<Modal {...useModal('card-delete')}>`. */
export function useModal(name: ModalName): {
  open: boolean;
  onOpenChange: (value: boolean) => void;
} {
  return { open: useModalFlag(name), onOpenChange: (value) => setModalFlag(name, value) };
}
