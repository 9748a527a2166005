import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ConfigError, loadConfig, testConfig } from '../../config.ts';
import { connectClient, credentials, nextEvent, startApp } from '../../test/test-realtime.ts';
import { builtInApp, builtInSettings, externalSettings } from './pusher-app.ts';

const KEY = 'k'.repeat(40);

describe('the built-in app', () => {
  it('derives one secret per app key, so processes sharing APP_SECRET agree', () => {
    expect(builtInApp(KEY)).toEqual(builtInApp(KEY));
    expect(builtInApp(KEY).secret).toMatch(/^[0-9a-f]{64}$/);
    expect(builtInApp(KEY).secret).not.toBe(builtInApp('x'.repeat(40)).secret);
    expect(builtInApp(KEY).secret).not.toContain(KEY);
  });

  it('sends browsers to their own origin, over TLS when the app is served over https', () => {
    expect(builtInSettings(testConfig())).toEqual({
      key: 'shieldline',
      host: null,
      port: null,
      tls: false,
      cluster: 'mt1',
    });
    expect(builtInSettings(testConfig({ APP_URL: 'https://vpn.example.com' })).tls).toBe(true);
  });
});

describe('PUSHER_* configuration', () => {
  const cluster = { PUSHER_APP_ID: '1', PUSHER_KEY: 'key', PUSHER_SECRET: 'secret' };

  it('stops start-up on a partial set, naming what is missing', () => {
    for (const [env, missing] of [
      [{ PUSHER_KEY: 'key' }, 'PUSHER_APP_ID'],
      [{ ...cluster, PUSHER_SECRET: '' }, 'PUSHER_SECRET'],
      [cluster, 'PUSHER_HOST'],
      [{ PUSHER_HOST: 'soketi.internal' }, 'PUSHER_APP_ID'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`${missing}: an external Pusher cluster`));
    }
    expect(() => loadConfig({ ...cluster, PUSHER_HOST: 'https://x' })).toThrow(/PUSHER_HOST/);
  });

  it('reaches Pusher by cluster, or a self-hosted cluster by host', () => {
    const pusher = loadConfig({ ...cluster, PUSHER_CLUSTER: 'eu' }).pusher;
    expect(pusher).toMatchObject({ appId: '1', key: 'key', scheme: 'https', cluster: 'eu' });
    expect(pusher && externalSettings(pusher)).toEqual({
      key: 'key',
      host: 'ws-eu.pusher.com',
      port: null,
      tls: true,
      cluster: 'eu',
    });
    const soketi = loadConfig({
      ...cluster,
      PUSHER_HOST: 'soketi.internal',
      PUSHER_PORT: '6001',
      PUSHER_SCHEME: 'http',
    }).pusher;
    expect(soketi && externalSettings(soketi)).toEqual({
      key: 'key',
      host: 'soketi.internal',
      port: 6001,
      tls: false,
      cluster: 'mt1',
    });
    expect(loadConfig({}).pusher).toBeUndefined();
  });
});

describe('an external cluster', async () => {
  // Our own built-in server stands in for the cluster: it speaks the same protocol.
  const cluster = await startApp();
  const { app, port } = await startApp({
    PUSHER_APP_ID: credentials.appId,
    PUSHER_KEY: credentials.key,
    PUSHER_SECRET: credentials.secret,
    PUSHER_HOST: '127.0.0.1',
    PUSHER_PORT: String(cluster.port),
    PUSHER_SCHEME: 'http',
  });

  it('gets the events, and browsers are sent there', async () => {
    expect(app.realtime.settings).toEqual({
      key: credentials.key,
      host: '127.0.0.1',
      port: cluster.port,
      tls: false,
      cluster: 'mt1',
    });
    const channelName = `news-${randomUUID()}`;
    const channel = connectClient(cluster.port).subscribe(channelName);
    await nextEvent(channel, 'pusher:subscription_succeeded');
    const received = nextEvent(channel, 'hello');
    await app.realtime.publish(channelName, 'hello', { via: 'cluster' });
    expect(await received).toEqual({ via: 'cluster' });
  });

  it('runs no built-in server', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${credentials.key}?protocol=7`);
    const outcome = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
    const events = await app.inject({ method: 'POST', url: '/apps/shieldline/events' });
    expect(events.statusCode).toBe(404);
  });
});
