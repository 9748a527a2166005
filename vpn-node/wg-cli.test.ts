import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dump, PEERS_PER_WG_SET, parseDump, setPeersArgs, WgCli } from './wg-cli.ts';

const PRIVATE = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';
const PUBLIC = 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=';
const PEER_1 = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
const PEER_2 = 'TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=';

describe('parseDump', () => {
  const cases: Array<{ name: string; text: string; dump: Dump }> = [
    {
      name: 'an interface without a key or peers',
      text: '(none)\t(none)\t0\toff\n',
      dump: { publicKey: null, listenPort: 0, peers: [] },
    },
    {
      name: 'peers with and without routes, handshakes and traffic',
      text: [
        `${PRIVATE}\t${PUBLIC}\t51820\toff`,
        `${PEER_1}\t(none)\t203.0.113.7:40112\t10.8.0.2/32,fd00:8::2/128\t1732000000\t1048576\t2097152\t25`,
        `${PEER_2}\t(none)\t(none)\t(none)\t0\t0\t0\toff`,
        '',
      ].join('\n'),
      dump: {
        publicKey: PUBLIC,
        listenPort: 51820,
        peers: [
          {
            publicKey: PEER_1,
            allowedIps: ['10.8.0.2/32', 'fd00:8::2/128'],
            latestHandshake: 1732000000,
            rx: 1048576,
            tx: 2097152,
          },
          { publicKey: PEER_2, allowedIps: [], latestHandshake: 0, rx: 0, tx: 0 },
        ],
      },
    },
    {
      name: 'no final newline, fwmark set',
      text: `${PRIVATE}\t${PUBLIC}\t443\t0xca6c\n${PEER_1}\t(none)\t(none)\t10.8.0.2/32\t0\t5\t6\toff`,
      dump: {
        publicKey: PUBLIC,
        listenPort: 443,
        peers: [
          { publicKey: PEER_1, allowedIps: ['10.8.0.2/32'], latestHandshake: 0, rx: 5, tx: 6 },
        ],
      },
    },
  ];
  it.each(cases)('reads $name', ({ text, dump }) => {
    expect(parseDump(text)).toEqual(dump);
  });

  const broken = [
    { name: 'empty output', text: '', error: /line 1/ },
    {
      name: 'an interface line of 3 fields',
      text: `${PRIVATE}\t${PUBLIC}\t51820\n`,
      error: /line 1/,
    },
    {
      name: 'a peer line of 7 fields',
      text: `${PRIVATE}\t${PUBLIC}\t1\toff\n${PEER_1}\t(none)\t(none)\t(none)\t0\t0\t0\n`,
      error: /line 2: expected 8/,
    },
    {
      name: 'a negative counter',
      text: `${PRIVATE}\t${PUBLIC}\t1\toff\n${PEER_1}\t(none)\t(none)\t(none)\t0\t-5\t0\toff\n`,
      error: /line 2: transfer-rx/,
    },
    {
      name: 'a port that is not a number',
      text: `${PRIVATE}\t${PUBLIC}\tport\toff\n`,
      error: /line 1: listen-port/,
    },
  ];
  it.each(broken)('refuses $name without quoting the private key', ({ text, error }) => {
    expect(() => parseDump(text)).toThrow(error);
    try {
      parseDump(text);
    } catch (thrown) {
      expect((thrown as Error).message).not.toContain(PRIVATE);
    }
  });
});

describe('setPeersArgs', () => {
  it('puts removals and route changes in one `wg set`, in order', () => {
    expect(
      setPeersArgs('wg0', [
        { publicKey: PEER_1, remove: true },
        { publicKey: PEER_2, allowedIps: ['10.8.0.3/32', 'fd00:8::3/128'] },
        { publicKey: PUBLIC, allowedIps: [] },
      ]),
    ).toEqual([
      // biome-ignore format: one peer a line reads as the command does
      ['set', 'wg0',
        'peer', PEER_1, 'remove',
        'peer', PEER_2, 'allowed-ips', '10.8.0.3/32,fd00:8::3/128',
        'peer', PUBLIC, 'allowed-ips', ''],
    ]);
  });

  it('splits a large change into calls of PEERS_PER_WG_SET peers', () => {
    const changes = Array.from({ length: PEERS_PER_WG_SET * 2 + 1 }, () => ({
      publicKey: PEER_1,
      remove: true as const,
    }));
    const calls = setPeersArgs('wg0', changes);
    expect(calls.map((args) => (args.length - 2) / 3)).toEqual([
      PEERS_PER_WG_SET,
      PEERS_PER_WG_SET,
      1,
    ]);
  });

  it('makes no call for no change', () => {
    expect(setPeersArgs('wg0', [])).toEqual([]);
  });
});

describe('WgCli', () => {
  // A stand-in `wg` that logs its arguments, prints a dump, and fails like `wg` for `bad0`.
  let folder: string;
  let binary: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'vpn-node-wg-'));
    binary = join(folder, 'wg');
    await writeFile(
      binary,
      [
        '#!/bin/sh',
        `printf '%s|' "$@" >> "${folder}/calls"`,
        `echo >> "${folder}/calls"`,
        'if [ "$2" = bad0 ]; then echo "Unable to access interface: No such device" >&2; exit 1; fi',
        `if [ "$1" = show ]; then printf '${PRIVATE}\\t${PUBLIC}\\t51820\\toff\\n${PEER_1}\\t(none)\\t(none)\\t10.8.0.2/32\\t0\\t7\\t8\\toff\\n'; fi`,
      ].join('\n'),
    );
    await chmod(binary, 0o755);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('runs `wg show IFACE dump` and `wg set` with the arguments wireguard-tools takes', async () => {
    const wg = new WgCli(binary, 'wg0');
    expect(await wg.dump()).toEqual({
      publicKey: PUBLIC,
      listenPort: 51820,
      peers: [{ publicKey: PEER_1, allowedIps: ['10.8.0.2/32'], latestHandshake: 0, rx: 7, tx: 8 }],
    });
    await wg.setKeyAndPort('/var/lib/vpn-node/private.key', 51821);
    await wg.setPeers([{ publicKey: PEER_2, allowedIps: ['10.8.0.3/32'] }]);
    await wg.setPeers([]);
    const calls = (await readFile(join(folder, 'calls'), 'utf8')).trim().split('\n');
    expect(calls).toEqual([
      'show|wg0|dump|',
      'set|wg0|listen-port|51821|private-key|/var/lib/vpn-node/private.key|',
      `set|wg0|peer|${PEER_2}|allowed-ips|10.8.0.3/32|`,
    ]);
  });

  it("fails with wg's own words", async () => {
    await expect(new WgCli(binary, 'bad0').dump()).rejects.toThrow(
      /show bad0 failed: Unable to access interface: No such device/,
    );
    await expect(new WgCli(join(folder, 'absent'), 'wg0').dump()).rejects.toThrow(/ENOENT/);
  });
});
