import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { MarkdownField } from './markdown-field.tsx';

// Issue 22 must-show 1: the preview beside the text where the field is wide. Every field of
// a page (an FAQ has one a question) renders in the same worker, started once.
afterEach(() => {
  vi.unstubAllGlobals();
});

function Field({ label, initial }: { label: string; initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MarkdownField label={label} hint="Markdown" value={value} lang="en" onChange={setValue} />
  );
}

describe('Markdown fields side by side with their previews', () => {
  it('share one worker for every preview on the page', async () => {
    const RealWorker = Worker;
    const started = vi.fn();
    vi.stubGlobal(
      'Worker',
      class extends RealWorker {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          started(String(url));
        }
      },
    );
    const screen = await render(
      <div style={{ width: 900 }}>
        <Field label="Answer 1" initial="## First" />
        <Field label="Answer 2" initial="## Second" />
      </div>,
    );
    const first = screen.getByRole('region', { name: 'Preview' }).nth(0);
    const second = screen.getByRole('region', { name: 'Preview' }).nth(1);
    await expect.element(first.getByRole('heading', { level: 2 })).toHaveTextContent('First');
    await expect.element(second.getByRole('heading', { level: 2 })).toHaveTextContent('Second');
    expect(screen.getByRole('tab').query()).toBeNull();

    await screen.getByRole('textbox', { name: 'Answer 2' }).fill('## Second, changed');
    await expect
      .element(second.getByRole('heading', { level: 2 }))
      .toHaveTextContent('Second, changed');
    await expect.element(first.getByRole('heading', { level: 2 })).toHaveTextContent('First');
    expect(started).toHaveBeenCalledTimes(1);
  });
});
