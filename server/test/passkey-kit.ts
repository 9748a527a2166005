import { passkeyEndpoints } from '#shared/contracts/passkeys.ts';
import type { ApiAnswer, EndpointCaller } from './api-client.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';
import { TEST_PASSWORD } from './test-users.ts';

// Passkey ceremonies through the API as the browser runs them, with the software
// authenticator in place of the person's device. Free of any test runner.

/** The origin of a test app's default APP_URL (http://localhost:3000). */
export const TEST_ORIGIN = 'http://localhost:3000';

/** The `cookie` header value of the ceremony cookie an answer set, or undefined. */
export function ceremonyCookie(answer: ApiAnswer): string | undefined {
  const header = answer.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [String(header)] : [];
  for (const cookie of cookies) {
    const pair = cookie.split(';')[0] ?? '';
    if (/^(__Host-)?passkey_(register|sign_in)=./.test(pair)) return pair;
  }
  return undefined;
}

/** Two `cookie` header values as one. */
export const bothCookies = (...cookies: (string | undefined)[]) =>
  cookies.filter(Boolean).join('; ');

/** Starts adding a passkey as `cookie`'s user: the options and the ceremony cookie. */
export async function startRegistration(call: EndpointCaller, cookie: string) {
  const answer = await call(passkeyEndpoints.registrationOptions.account, {
    cookie,
    body: { password: TEST_PASSWORD },
  });
  if (answer.status !== 200) {
    throw new Error(`registration options: ${answer.status} ${answer.text}`);
  }
  return { options: answer.data.options, ceremony: ceremonyCookie(answer) };
}

/** Adds a passkey made by `authenticator` (a new one by default) to `cookie`'s account. */
export async function addPasskey(
  call: EndpointCaller,
  cookie: string,
  authenticator = new SoftwareAuthenticator(TEST_ORIGIN),
  name = 'Test key',
) {
  const { options, ceremony } = await startRegistration(call, cookie);
  const answer = await call(passkeyEndpoints.register.account, {
    cookie: bothCookies(cookie, ceremony),
    body: { name, credential: authenticator.register(options) },
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.text}`);
  return { authenticator, passkey: answer.data.passkey };
}

/** Asks for a sign-in challenge as a visitor: the options and the ceremony cookie. */
export async function startSignIn(call: EndpointCaller, ip?: string) {
  const answer = await call(passkeyEndpoints.signInOptions, ip ? { ip } : {});
  if (answer.status !== 200) throw new Error(`sign-in options: ${answer.status} ${answer.text}`);
  return { options: answer.data.options, ceremony: ceremonyCookie(answer) };
}
