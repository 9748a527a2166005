import { describe, expect, it } from 'vitest';
import { startServerProcess } from './server-process.ts';

describe('startServerProcess', () => {
  it('reports a server killed by a signal before it was ready, without waiting out the deadline', async () => {
    const started = performance.now();
    // The process kills itself with SIGKILL before the server module even loads.
    const failure = startServerProcess({
      NODE_OPTIONS: '--import=data:text/javascript,process.kill(process.pid,9)',
    });
    await expect(failure).rejects.toThrow(/exited \(SIGKILL\) before it was ready/);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('reports a server that exits with a code', async () => {
    await expect(startServerProcess({ PORT: 'not-a-port' })).rejects.toThrow(
      /exited \(code 1\) before it was ready: .*PORT/s,
    );
  });
});
