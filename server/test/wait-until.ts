/**
 * Waits until `check()` holds, asking again every few milliseconds: on a busy machine timers
 * and sockets run late, so a test waits for what it needs rather than sleeping a fixed time.
 * Fails after `timeoutMs`, naming `what` it waited for.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what = 'the condition',
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
