import { GatewayRequestError } from '../gateway.ts';

/**
 * A request the sandbox refuses, as a processor's API answers 400/404 (an unknown id, a
 * refund over what is left, an action the subscription's state does not allow). The
 * caller's mistake, not an outage: retrying the same call will not help.
 */
export class SandboxRequestError extends GatewayRequestError {
  constructor(
    readonly code:
      | 'resource_missing'
      | 'invalid_state'
      | 'invalid_request'
      | 'idempotency_key_reused'
      | 'token_used'
      | 'token_expired'
      | 'refund_too_large',
    message: string,
  ) {
    super(
      code === 'resource_missing'
        ? 'not_found'
        : code === 'invalid_state'
          ? 'invalid_state'
          : 'invalid_request',
      message,
    );
    this.name = 'SandboxRequestError';
  }
}

export function missing(kind: string, id: string): SandboxRequestError {
  return new SandboxRequestError('resource_missing', `No such ${kind}: ${id}`);
}
