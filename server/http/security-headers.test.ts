import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';
import { securityHeaderValues } from './security-headers.ts';

describe('security headers', () => {
  it('are the same on every answer: pages, API, errors', async () => {
    const { app } = await createTestApp();
    const answers = await Promise.all(
      ['/healthz', '/api/public/v1/nothing-here', '/en/signin'].map((url) => app.inject({ url })),
    );
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe(
        securityHeaderValues(false)['content-security-policy'],
      );
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('ask for HTTPS only when served over HTTPS', () => {
    const plain = securityHeaderValues(false);
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const secure = securityHeaderValues(true);
    expect(secure['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('forbid inline scripts and framing', () => {
    const csp = securityHeaderValues(false)['content-security-policy'];
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });
});
