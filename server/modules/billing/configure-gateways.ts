import { REAL_GATEWAYS, type RealGatewayName } from '#shared/billing/gateway-settings.ts';
import { gatewaySettings } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { PaymentGateway } from '../../platform/payments/gateway.ts';
import { GATEWAY_FACTORIES } from '../../platform/payments/gateway-factories.ts';
import {
  type GatewaySettingsDeps,
  type InForce,
  settingsInForce,
} from './gateway-settings-store.ts';

export function gatewaySettingsDeps(app: App): GatewaySettingsDeps {
  return {
    db: app.db,
    log: app.log,
    gatewaySettingsBox: app.gatewaySettingsBox,
    config: app.config,
  };
}

function build<G extends RealGatewayName>(
  app: App,
  gateway: G,
  entry: NonNullable<InForce[G]>,
): PaymentGateway | null {
  const factory = GATEWAY_FACTORIES[gateway];
  if (!factory) return null;
  return factory(entry.settings, {
    log: app.log.child({ component: `${gateway}-gateway` }),
    appUrl: app.config.appUrl,
    now: () => app.payments.clock.now(),
  });
}

/**
 * Puts each real gateway on or off as its settings in force say (environment, or staff's
 * saved keys): after start and after every change of the settings, without a restart. A
 * gateway whose adapter cannot be made from its keys stays off, logged.
 */
export async function configureGateways(app: App): Promise<RealGatewayName[]> {
  return applySettings(app, await settingsInForce(gatewaySettingsDeps(app)));
}

/**
 * At start, before the database is asked: the environment's gateways, so a server whose
 * database is down at boot still starts (and sells what it can once it is back).
 */
export function configureFromEnvironment(app: App): RealGatewayName[] {
  const inForce: Record<string, unknown> = {};
  for (const [gateway, settings] of Object.entries(app.config.billing.gateways)) {
    if (settings) inForce[gateway] = { settings, source: 'environment', selling: true };
  }
  return applySettings(app, inForce as InForce);
}

/** The gateways each app's settings set up: only those are taken down when keys go. */
const configured = new WeakMap<App, Set<RealGatewayName>>();

function applySettings(app: App, inForce: InForce): RealGatewayName[] {
  const selling: RealGatewayName[] = [];
  const ours = configured.get(app) ?? new Set<RealGatewayName>();
  configured.set(app, ours);
  for (const gateway of REAL_GATEWAYS) {
    const entry = inForce[gateway];
    let made: PaymentGateway | null = null;
    if (entry) {
      try {
        made = build(app, gateway, entry as never);
      } catch (error) {
        app.log.error({ err: error, gateway }, 'payment gateway could not be set up');
      }
    }
    if (made && entry) {
      app.payments.add(made, { selling: entry.selling });
      ours.add(gateway);
      if (entry.selling) selling.push(gateway);
    } else if (ours.delete(gateway)) {
      // A gateway registered otherwise (a test's own) is not ours to take down.
      app.payments.remove(gateway);
    }
  }
  return selling;
}

/** How often a process looks whether staff changed the gateway settings in another one. */
const SETTINGS_CHECK_MS = 30_000;

async function settingsVersion(app: App): Promise<string> {
  const rows = await app.db
    .select({
      gateway: gatewaySettings.gateway,
      enabled: gatewaySettings.enabled,
      updatedAt: gatewaySettings.updatedAt,
    })
    .from(gatewaySettings)
    .orderBy(gatewaySettings.gateway);
  return JSON.stringify(rows);
}

/**
 * Staff save settings through one API process; the others pick the change up within half a
 * minute (keys rotated after a leak must stop working everywhere, not at the next restart).
 */
export function watchGatewaySettings(app: App): void {
  let version: string | null = null;
  const check = async () => {
    const now = await settingsVersion(app);
    if (now === version) return;
    await configureGateways(app);
    version = now;
  };
  // Staff's saved settings as soon as the database answers, then on every change.
  app.addHook('onReady', async () => {
    check().catch((error: unknown) =>
      app.log.error({ err: error }, 'gateway settings could not be read'),
    );
  });
  const timer = setInterval(() => {
    check().catch((error: unknown) =>
      app.log.error({ err: error }, 'gateway settings could not be re-read'),
    );
  }, SETTINGS_CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
