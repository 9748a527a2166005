import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const GOOD = {
  VPN_NODE_API_URL: 'https://vpn.example.com/',
  VPN_NODE_TOKEN: 'Zt3_k-9aQ2mP7xLw0vB4',
  VPN_NODE_INTERFACE: 'wg0',
  VPN_NODE_STATE_DIR: '/var/lib/vpn-node',
};

describe('loadConfig', () => {
  it('reads the environment, with the defaults', () => {
    expect(loadConfig(GOOD)).toEqual({
      apiUrl: 'https://vpn.example.com',
      token: GOOD.VPN_NODE_TOKEN,
      interfaceName: 'wg0',
      stateDir: '/var/lib/vpn-node',
      wgPath: 'wg',
      logLevel: 'info',
    });
    expect(
      loadConfig({ ...GOOD, VPN_NODE_WG: '/usr/bin/wg', VPN_NODE_LOG_LEVEL: 'debug' }),
    ).toMatchObject({
      wgPath: '/usr/bin/wg',
      logLevel: 'debug',
    });
  });

  it.each([
    { env: {}, problem: 'VPN_NODE_API_URL: is required; VPN_NODE_TOKEN: is required' },
    {
      env: { ...GOOD, VPN_NODE_API_URL: 'ftp://vpn.example.com' },
      problem: 'VPN_NODE_API_URL: must be the http(s) URL',
    },
    { env: { ...GOOD, VPN_NODE_API_URL: 'vpn.example.com' }, problem: 'VPN_NODE_API_URL: must be' },
    {
      env: { ...GOOD, VPN_NODE_TOKEN: 'short' },
      problem: 'VPN_NODE_TOKEN: must be the server token',
    },
    { env: { ...GOOD, VPN_NODE_TOKEN: 'has spaces in it, sixteen+' }, problem: 'VPN_NODE_TOKEN:' },
    { env: { ...GOOD, VPN_NODE_INTERFACE: 'wg0/../x' }, problem: 'VPN_NODE_INTERFACE: must be' },
    { env: { ...GOOD, VPN_NODE_INTERFACE: 'a-name-too-long-1' }, problem: 'VPN_NODE_INTERFACE:' },
    { env: { ...GOOD, VPN_NODE_STATE_DIR: '' }, problem: 'VPN_NODE_STATE_DIR: is required' },
    { env: { ...GOOD, VPN_NODE_LOG_LEVEL: 'loud' }, problem: 'VPN_NODE_LOG_LEVEL: must be one of' },
  ])('stops on $problem', ({ env, problem }) => {
    expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${problem}`);
  });

  it('never repeats the token in its message', () => {
    const env = { ...GOOD, VPN_NODE_TOKEN: 'secret token value!!' };
    expect(() => loadConfig(env)).toThrow(/^(?!.*secret token value)/s);
  });
});
