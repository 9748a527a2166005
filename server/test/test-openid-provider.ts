import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** Someone who can sign in at the stand-in, with the claims it vouches for. */
export interface TestPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds (or replaces) a person. */
  addPerson(person: TestPerson): void;
  /**
   * Plays the browser: follows our authorization URL to the provider's login page, signs
   * in there as `sub`, and answers the URL the provider finally sends the browser back to
   * (our callback, with code, state and iss).
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
}

const INTERACTION = /^\/interaction\/([\w-]+)(\/login)?$/;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A real OpenID provider (oidc-provider) on a random loopback port, with one confidential
 * client that must use PKCE: the stand-in for Google at the network boundary. Its login
 * page is a one-field form; consent is given with the login.
 */
export async function startTestOpenIdProvider(client: {
  redirectUri: string;
  /** A fixed port and secret (the Playwright run, whose app is configured beforehand). */
  port?: number;
  clientSecret?: string;
  /** Anyone may sign in: an unknown login becomes `<login>@example.com`, verified. */
  anyone?: boolean;
}): Promise<TestOpenIdProvider> {
  const people = new Map<string, TestPerson>();
  const personFor = (login: string): TestPerson | undefined => {
    const known = people.get(login);
    if (known || !client.anyone || !/^[\w.-]{1,64}$/.test(login)) return known;
    const person = { sub: login, email: `${login}@example.com`, email_verified: true, name: login };
    people.set(login, person);
    return person;
  };
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_q, response) =>
    response.writeHead(503).end();
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(client.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vpn-web';
  const clientSecret = client.clientSecret ?? randomBytes(24).toString('base64url');
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...signingKey.export({ format: 'jwk' }), kid: 'test', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Grant: 600,
      Session: 600,
      AccessToken: 600,
      IdToken: 600,
    },
    // Like Google, put the e-mail and name into the id_token, not only into userinfo.
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = personFor(sub);
      return person && { accountId: sub, claims: async () => ({ ...person }) };
    },
  });

  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    const match = INTERACTION.exec(ctx.path);
    if (!match) return next();
    const [, uid, login] = match;
    if (!login) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Test provider</title><form method="post" action="/interaction/${uid}/login"><label>Account <input name="login" autofocus></label> <button>Sign in</button></form>`;
      return;
    }
    const accountId = new URLSearchParams(await readBody(ctx.req)).get('login') ?? '';
    if (!personFor(accountId)) {
      ctx.status = 400;
      ctx.body = `unknown person ${accountId}`;
      return;
    }
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    ctx.respond = false;
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  });
  handle = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    addPerson: (person) => people.set(person.sub, person),
    signIn: (authorizationUrl, sub) => browse(authorizationUrl, sub, client.redirectUri),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A browser in miniature: cookies by name, redirects by hand, the login form filled in. */
async function browse(start: string, sub: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  let form: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      method: form === undefined ? 'GET' : 'POST',
      body: form,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.trim().split(/=(.*)/s);
      const expired = attributes.some((a) => /expires=.*1970/i.test(a) || /max-age=0\b/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get('location');
    form = undefined;
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      if (url.href.startsWith(stopAt)) return url;
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || !action) {
      throw new Error(`provider answered ${response.status} at ${url.pathname}: ${page}`);
    }
    url = new URL(action, url);
    form = new URLSearchParams({ login: sub }).toString();
  }
  throw new Error('too many redirects at the provider');
}
