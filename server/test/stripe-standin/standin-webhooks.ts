import Stripe from 'stripe';
import { postWebhook } from '../post-webhook.ts';
import type { StandinObjects, StripeEvent, StripeObject } from './standin-objects.ts';

// Stripe's webhooks: each change an event carrying the object as it stood, signed with
// Stripe's own scheme (`Stripe-Signature: t=…,v1=…`, by the SDK's test header helper) and
// posted, one after another in the order they happened, to the endpoint.

/** Answers the HTTP status of one delivery. */
export type Deliver = (headers: Record<string, string>, body: string) => Promise<number>;

export interface Delivery {
  event: StripeEvent;
  status: number;
}

const API_VERSION = '2026-10-28.endive';

export function deliverTo(url: string): Deliver {
  return (headers, body) => postWebhook(url, body, headers);
}

export class StandinWebhooks {
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  /** While held, events wait in `held` (a test sends them in its own order). */
  holding = false;
  readonly held: StripeEvent[] = [];
  #queue: StripeEvent[] = [];
  #sending: Promise<void> = Promise.resolve();
  readonly #helper = new Stripe('sk_test_signing_only').webhooks;

  constructor(
    readonly objects: StandinObjects,
    readonly secret: string,
    public deliver: Deliver | null,
  ) {}

  record(type: string, object: StripeObject, previous?: unknown): StripeEvent {
    const event: StripeEvent = {
      id: this.objects.newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.objects.now(),
      data: {
        object: this.objects.present(object),
        ...(previous ? { previous_attributes: previous } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    if (this.holding) this.held.push(event);
    else this.#queue.push(event);
    return event;
  }

  /** Sends what has happened so far; resolves when each is delivered. */
  flush(): Promise<void> {
    const batch = this.#queue.splice(0);
    this.#sending = this.#sending.then(async () => {
      for (const event of batch) await this.send(event);
    });
    return this.#sending;
  }

  /** The `Stripe-Signature` header for a body, at `timestamp` (seconds; now by default). */
  sign(body: string, options: { timestamp?: number; secret?: string } = {}): string {
    return this.#helper.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? this.secret,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
  }

  /** One event, signed now, as Stripe posts it; answers the endpoint's status. */
  async send(event: StripeEvent): Promise<number> {
    const body = JSON.stringify(event, null, 2);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'stripe-signature': this.sign(body),
    };
    let status = 0;
    try {
      status = this.deliver ? await this.deliver(headers, body) : 0;
    } catch {
      status = 0;
    }
    this.deliveries.push({ event, status });
    return status;
  }
}
