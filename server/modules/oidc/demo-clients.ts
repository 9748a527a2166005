import { inArray } from 'drizzle-orm';
import { oauthClients } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { createOAuthClient, type NewOAuthClient } from './oauth-clients-service.ts';
import { DEVICE_CODE_GRANT } from './oidc-clients.ts';

const APP_SCOPES = ['openid', 'offline_access', 'email', 'profile', 'account', 'vpn'];

/** Our own apps as the demo has them, with fixed ids an app build (or a test) can name. */
export const DEMO_CLIENTS: readonly (NewOAuthClient & { clientId: string })[] = [
  {
    clientId: 'shieldline-android',
    name: 'Shieldline for Android',
    type: 'public',
    firstParty: true,
    redirectUris: ['com.shieldline.app:/oauth2redirect'],
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: APP_SCOPES,
  },
  {
    clientId: 'shieldline-tv',
    name: 'Shieldline for TV and routers',
    type: 'public',
    firstParty: true,
    redirectUris: [],
    grantTypes: [DEVICE_CODE_GRANT, 'refresh_token'],
    scopes: APP_SCOPES,
  },
];

/** Adds the demo's clients that are missing (a restart on the same data adds none). */
export async function seedDemoClients(app: App): Promise<void> {
  const present = await app.db
    .select({ clientId: oauthClients.clientId })
    .from(oauthClients)
    .where(
      inArray(
        oauthClients.clientId,
        DEMO_CLIENTS.map((c) => c.clientId),
      ),
    );
  const have = new Set(present.map((row) => row.clientId));
  for (const client of DEMO_CLIENTS) {
    if (!have.has(client.clientId)) await createOAuthClient(app.db, app.oidcClientBox, client);
  }
}
