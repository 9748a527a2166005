import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedXhr } from '../test/scripted-xhr.ts';
import { ApiError, isCancelled } from './api-error.ts';
import { api } from './client.ts';

// Uploads go through XMLHttpRequest; a scripted one stands in for the network.
afterEach(() => {
  vi.unstubAllGlobals();
  ScriptedXhr.last = undefined;
});

describe('api.upload', () => {
  it('posts the form with the CSRF header and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const onProgress = vi.fn();
    const form = new FormData();
    form.set('photo', new Blob(['x']), 'me.png');
    const pending = api.upload<{ photo: string }>('/api/account/v1/profile/update', form, {
      onProgress,
    });
    const xhr = ScriptedXhr.current();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/account/v1/profile/update');
    expect(xhr.headers['x-requested-with']).toBe('fetch');
    expect(xhr.body).toBe(form);
    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.respond(200, JSON.stringify({ photo: '/avatars/1.png' }));
    await expect(pending).resolves.toEqual({ photo: '/avatars/1.png' });
    expect(onProgress.mock.calls.map(([fraction]) => fraction)).toEqual([0.25, 1, 1]);
  });

  it('rejects with the error envelope', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const pending = api.upload('/upload', new FormData());
    ScriptedXhr.current().respond(
      413,
      JSON.stringify({ code: 'payload_too_large', errors_info: ['errors.x'] }),
    );
    const error = await pending.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large', info: ['errors.x'] });
  });

  it('rejects with network and timeout codes', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const failed = api.upload('/upload', new FormData());
    ScriptedXhr.current().onerror?.();
    await expect(failed).rejects.toMatchObject({ code: 'network', status: 0 });
    const slow = api.upload('/upload', new FormData(), { timeoutMs: 60_000 });
    expect(ScriptedXhr.current().timeout).toBe(60_000);
    ScriptedXhr.current().ontimeout?.();
    await expect(slow).rejects.toMatchObject({ code: 'timeout' });
  });

  it('aborts with the signal as a cancellation', async () => {
    vi.stubGlobal('XMLHttpRequest', ScriptedXhr);
    const controller = new AbortController();
    const pending = api.upload('/upload', new FormData(), { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((reason: unknown) => reason);
    expect(ScriptedXhr.current().aborted).toBe(true);
    expect(isCancelled(error)).toBe(true);
  });

  it('uploads through the real XMLHttpRequest and reads an error page as internal', async () => {
    // The test page's own server answers an unknown POST with something that is not our
    // envelope, which is exactly what a misrouted upload meets in production.
    const error = await api
      .upload('/__no_such_upload__', new FormData())
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'internal' });
    expect((error as ApiError).status).toBeGreaterThanOrEqual(400);
  });
});
