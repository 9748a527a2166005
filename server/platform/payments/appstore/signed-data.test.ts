import { describe, expect, it } from 'vitest';
import { isLoopbackHost, makesOnlineChecks } from './signed-data.ts';

// Setting `apiUrl` must not turn the verifier's online checks (OCSP, dates judged now) off,
// save for a stand-in on this machine.

describe('the App Store verifier’s online checks', () => {
  it('are on against Apple’s own hosts', () => {
    expect(makesOnlineChecks({ apiUrl: undefined })).toBe(true);
  });

  it('are off only for a stand-in on a loopback address', () => {
    for (const apiUrl of [
      'http://127.0.0.1:5421',
      'http://127.8.9.10',
      'http://localhost:8080',
      'https://LOCALHOST.',
      'http://[::1]:5421',
      'http://[::ffff:127.0.0.1]:80',
    ]) {
      expect(makesOnlineChecks({ apiUrl }), apiUrl).toBe(false);
    }
  });

  it('stay on whenever apiUrl names another host, Production or not', () => {
    for (const apiUrl of [
      'https://api.storekit.itunes.apple.com',
      'https://appstore-proxy.internal.example',
      'http://10.0.0.5:5421',
      'http://128.0.0.1',
      'http://[::2]',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'not a url',
    ]) {
      expect(makesOnlineChecks({ apiUrl }), apiUrl).toBe(true);
    }
    const production = { environment: 'Production' as const, apiUrl: 'https://api.example.com' };
    expect(makesOnlineChecks(production)).toBe(true);
  });

  it('tells loopback hosts from the rest', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
  });
});
