import { useCallback, useRef, useState } from 'react';
import { BILLING_MESSAGES, type CheckoutResponse } from '#shared/contracts/billing.ts';
import { isApiError } from '../../../api/api-error.ts';
import { notify, notifyRequestError, REQUEST_ERROR_DURATION_MS } from '../../../ui/toast.tsx';
import { goToProvider } from '../order/provider-hop.ts';
import { newIdempotencyKey, useBillingRefresh } from './billing-api.ts';

// The fields a payment's refusal is reported under (a 422): the card, however it was given.
const CARD_FIELDS = ['card', 'token', 'card_id'] as const;

/** The message of a refused card (declined, expired, insufficient funds …), if that is what failed. */
export function declineMessage(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 422) return undefined;
  for (const field of CARD_FIELDS) {
    const message = error.validation[field]?.[0];
    if (message) return message;
  }
  return undefined;
}

/**
 * One payment (a plan change, paying the open invoice): one idempotency key per attempt, so
 * a double click or a retry after a lost answer charges once; a refused card ends the attempt
 * (the next try is a new one) and its message is kept for the card field; a step at the
 * provider (3-D Secure, PayPal) leaves the page; a completed one refreshes billing and the
 * session's subscription before `onCompleted`.
 *
 * An attempt pays with one thing (`what`: a saved card's id, a new card's details): paying
 * with another starts a new attempt, since the server refuses a key sent again with other
 * parameters (`idempotency_error`), which also ends the attempt.
 */
export function usePayment() {
  const refresh = useBillingRefresh();
  const attempt = useRef<{ key: string; what: string } | null>(null);
  const running = useRef(false);
  const [paying, setPaying] = useState(false);
  const [declined, setDeclined] = useState<string>();

  /**
   * The key of the attempt at paying with `what`: the same until the attempt ends or `what`
   * changes, so what belongs to the attempt (a new card's token) can be kept under it.
   */
  const attemptKey = useCallback((what = '') => {
    if (attempt.current?.what !== what) attempt.current = { key: newIdempotencyKey(), what };
    return attempt.current.key;
  }, []);

  const pay = useCallback(
    async (
      send: (idempotencyKey: string) => Promise<CheckoutResponse>,
      onCompleted: () => unknown,
      /** Also told of a refused card's message, to put it under the field it concerns. */
      onDeclined?: (message: string) => void,
      /** What this attempt pays with (see attemptKey). */
      what = '',
    ) => {
      if (running.current) return;
      running.current = true;
      setPaying(true);
      setDeclined(undefined);
      let leaving = false;
      try {
        const answer = await send(attemptKey(what));
        attempt.current = null;
        if (answer.status === 'requires_action') {
          if (answer.redirect_url) {
            leaving = true;
            goToProvider(answer.redirect_url);
          } else {
            notify.danger(BILLING_MESSAGES.processingError, {
              duration: REQUEST_ERROR_DURATION_MS,
            });
          }
          return;
        }
        await refresh();
        await onCompleted();
      } catch (error) {
        const message = declineMessage(error);
        if (message) {
          attempt.current = null;
          setDeclined(message);
          onDeclined?.(message);
        } else {
          if (isApiError(error) && error.code === 'idempotency_error') attempt.current = null;
          notifyRequestError(error);
        }
      } finally {
        running.current = false;
        // Leaving for the provider: the button keeps spinning until the page goes.
        if (!leaving) setPaying(false);
      }
    },
    [refresh, attemptKey],
  );

  return {
    pay,
    attemptKey,
    paying,
    declined,
    clearDeclined: () => setDeclined(undefined),
  };
}
