import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export const MODAL_OPENED_CLASS = 'modal-opened';

// §4: the body carries the class while any modal is open. Nested modals each hold a claim,
// so closing the inner one keeps the class for the outer.
let openCount = 0;

function claimBodyClass(): () => void {
  openCount += 1;
  document.body.classList.add(MODAL_OPENED_CLASS);
  return () => {
    openCount -= 1;
    if (openCount === 0) document.body.classList.remove(MODAL_OPENED_CLASS);
  };
}

function BodyClassClaim() {
  useEffect(claimBodyClass, []);
  return null;
}

// Escape belongs to an open dropdown inside the modal first; the dialog hears it earlier
// (Radix listens in the capture phase), so it has to step aside.
function escapeBelongsToPopup(event: KeyboardEvent): boolean {
  const target = event.target;
  return (
    target instanceof Element && target.closest('[role="combobox"][aria-expanded="true"]') !== null
  );
}

// Our modals open from state, not from a Radix trigger, so Radix has nowhere to send focus back
// to on close. The element that held focus as the modal opened gets it back, if it is still on
// the page (a deleted row's button is not).
function useFocusReturn(open: boolean) {
  const returnTo = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  return (event: Event) => {
    const target = returnTo.current;
    returnTo.current = null;
    if (target?.isConnected) {
      event.preventDefault();
      target.focus();
    }
  };
}

const SIZES = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl' } as const;

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Translated text; it names the dialog (aria-labelledby). */
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: keyof typeof SIZES;
  /** False while something must finish: no close button, Escape and outside clicks ignored. */
  dismissible?: boolean;
  className?: string;
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  dismissible = true,
  className = '',
}: ModalProps) {
  const { t } = useTranslation();
  const returnFocus = useFocusReturn(open);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || dismissible) && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] ${SIZES[size]} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none ${className}`}
          onEscapeKeyDown={(event) => {
            if (escapeBelongsToPopup(event)) event.preventDefault();
          }}
          onCloseAutoFocus={returnFocus}
        >
          <BodyClassClaim />
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            {dismissible && (
              <Dialog.Close
                className="-m-1 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500"
                aria-label={t('ui.modal.close')}
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
                  <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
                </svg>
              </Dialog.Close>
            )}
          </div>
          {description !== undefined && (
            <Dialog.Description className="mt-2 text-sm text-slate-600">
              {description}
            </Dialog.Description>
          )}
          {children !== undefined && <div className="mt-4">{children}</div>}
          {footer !== undefined && (
            <div className="mt-6 flex flex-wrap justify-end gap-3">{footer}</div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
