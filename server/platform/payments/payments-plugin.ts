import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayName } from '#shared/billing/billing-values.ts';
import type { ServiceId } from '#shared/subscription/actions.ts';
import { BillingClock } from './billing-clock.ts';
import { createBonusGateway } from './bonus/bonus-gateway.ts';
import type { PaymentGateway } from './gateway.ts';
import { createSandboxGateway } from './sandbox/sandbox-gateway.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentGateways;
  }
}

/** The gateways this process sells through: those configured, one per §9 service. */
export class PaymentGateways {
  readonly clock = new BillingClock();
  readonly #byName = new Map<GatewayName, PaymentGateway>();
  readonly #notSelling = new Set<GatewayName>();

  /**
   * Registers a gateway. One not `selling` takes no new orders but still serves what it
   * sold: its webhooks, renewals, cancels and refunds of existing subscriptions.
   */
  add(gateway: PaymentGateway, options: { selling?: boolean } = {}): void {
    this.#byName.set(gateway.name, gateway);
    if (options.selling === false) this.#notSelling.add(gateway.name);
    else this.#notSelling.delete(gateway.name);
  }

  /** Forgets a gateway whose keys are gone: nothing can be asked of it any more. */
  remove(name: GatewayName): void {
    this.#byName.delete(name);
    this.#notSelling.delete(name);
  }

  get(name: GatewayName): PaymentGateway | undefined {
    return this.#byName.get(name);
  }

  /** The gateway that sells a service now; a real card processor wins over the sandbox. */
  forService(serviceId: ServiceId): PaymentGateway | undefined {
    return this.enabled().find((gateway) => gateway.serviceId === serviceId);
  }

  /** Every registered gateway, selling or not (reconciliation, lapses). */
  all(): PaymentGateway[] {
    // By §9 service (cards first on the order page), a real processor before the sandbox.
    return [...this.#byName.values()].sort(
      (a, b) =>
        a.serviceId - b.serviceId || Number(a.name === 'sandbox') - Number(b.name === 'sandbox'),
    );
  }

  /** The gateways taking new orders. */
  enabled(): PaymentGateway[] {
    return this.all().filter((gateway) => !this.#notSelling.has(gateway.name));
  }
}

/**
 * Decorates the app with `payments`: the configured gateways and the billing clock. The
 * sandbox (a card processor's test mode) is on unless configuration turns it off.
 */
export const paymentsPlugin = fp(
  async (app: FastifyInstance) => {
    const gateways = new PaymentGateways();
    app.decorate('payments', gateways);
    // Bonus days are always granted the same way, whatever else sells.
    gateways.add(createBonusGateway({ db: app.db, clock: gateways.clock }));
    const sandbox = app.config.billing.sandbox;
    if (sandbox) {
      gateways.add(await createSandboxGateway(app, { webhookSecret: sandbox.webhookSecret }));
    }
  },
  { name: 'payments', dependencies: ['database', 'queue'] },
);
