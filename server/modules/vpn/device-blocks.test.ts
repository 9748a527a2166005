import { describe, expect, it } from 'vitest';
import { type BlockInputs, deviceBlocks } from './device-blocks.ts';

const open: BlockInputs = { blocked: false, access: true, limitReached: false, deviceLimit: 10 };
const placed = (n: number) => Array.from({ length: n }, () => ({ serverId: 1 }));

describe('deviceBlocks', () => {
  it.each([
    ['access', open, [null, null, null]],
    ['no access', { ...open, access: false }, ['no_access', 'no_access', 'no_access']],
    [
      'blocked, even without access',
      { ...open, blocked: true, access: false },
      ['blocked', 'blocked', 'blocked'],
    ],
    [
      'limit reached',
      { ...open, limitReached: true },
      ['traffic_limit', 'traffic_limit', 'traffic_limit'],
    ],
    [
      'a downgrade to 2: the newest waits',
      { ...open, deviceLimit: 2 },
      [null, null, 'device_limit'],
    ],
    [
      'no access wins over the device limit',
      { ...open, access: false, deviceLimit: 1 },
      ['no_access', 'no_access', 'no_access'],
    ],
  ] as const)('%s', (_name, inputs, expected) => {
    expect(deviceBlocks(placed(3), inputs)).toEqual(expected);
  });

  it('keeps a device without a server off, and counts it against the limit', () => {
    const devices = [{ serverId: null }, { serverId: 1 }, { serverId: 2 }];
    expect(deviceBlocks(devices, { ...open, deviceLimit: 2 })).toEqual([
      'no_server',
      null,
      'device_limit',
    ]);
  });
});
