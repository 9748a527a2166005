/**
 * Posts a provider's webhook to our route as the provider's servers would: the status our
 * route answered, or 0 when it could not be reached (the stand-ins record it, to retry).
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<number> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
