import { describe, expect, it } from 'vitest';
import { createLogger } from './log.ts';

describe('createLogger', () => {
  it('writes one JSON line an entry at or above its level, errors with their cause', () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => lines.push(line));
    log.debug('not shown');
    log.info('enrolled', { server_id: 7 });
    const error = new Error('fetch failed', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:3000'),
    });
    log.warn('report: failed; trying again', { error });

    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(
      true,
    );
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'info',
      msg: 'enrolled',
      server_id: 7,
    });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      level: 'warn',
      error: { message: 'fetch failed', cause: 'connect ECONNREFUSED 127.0.0.1:3000' },
    });
  });
});
