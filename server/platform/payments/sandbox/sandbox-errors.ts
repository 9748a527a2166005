import { GatewayRequestError } from '../gateway.ts';

type SandboxRefusal =
  | 'resource_missing'
  | 'invalid_state'
  | 'invalid_request'
  | 'idempotency_key_reused'
  | 'token_used'
  | 'token_expired'
  | 'refund_too_large';

const KINDS: Record<SandboxRefusal, GatewayRequestError['kind']> = {
  resource_missing: 'not_found',
  invalid_state: 'invalid_state',
  invalid_request: 'invalid_request',
  idempotency_key_reused: 'invalid_request',
  token_used: 'invalid_request',
  token_expired: 'invalid_request',
  refund_too_large: 'invalid_request',
};

/**
 * A request the sandbox refuses, as a processor's API answers 400/404 (an unknown id, a
 * used token, a refund over what is left, an action the subscription's state does not
 * allow): a GatewayRequestError, with the sandbox's own finer `code`.
 */
export class SandboxRequestError extends GatewayRequestError {
  constructor(
    readonly code: SandboxRefusal,
    message: string,
  ) {
    super(KINDS[code], message);
    this.name = 'SandboxRequestError';
  }
}

export function missing(kind: string, id: string): SandboxRequestError {
  return new SandboxRequestError('resource_missing', `No such ${kind}: ${id}`);
}
