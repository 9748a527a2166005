import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceWithConfig } from '#shared/contracts/vpn.ts';
import { configFileName, renderWireGuardConfig } from '#shared/vpn/wireguard-config.ts';
import { copyText } from '../../lib/clipboard.ts';
import { saveFile } from '../../lib/save-file.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { notify } from '../../ui/toast.tsx';
import { qrSvg } from './qr-code.ts';
import type { ShownConfig } from './vpn-api.ts';

/**
 * A device's complete `.conf`, shown once: as text to copy, as a QR code for the phone apps
 * and as a file. Its private key exists only in the page's memory while this is open (the
 * server never had it), so nothing can show it again once the dialog closes.
 */
export function ConfigView({ shown, onDone }: { shown: ShownConfig; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-5" data-testid="vpn-config-view">
      {shown.config ? (
        <CompleteConfig device={shown.device} parts={shown.config} privateKey={shown.privateKey} />
      ) : (
        <p className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          {t('vpn.config.no_server')}
        </p>
      )}
      <div className="flex justify-end">
        <Button onClick={onDone}>{t('vpn.config.done')}</Button>
      </div>
    </div>
  );
}

function CompleteConfig({
  device,
  parts,
  privateKey,
}: {
  device: DeviceWithConfig['device'];
  parts: NonNullable<DeviceWithConfig['config']>;
  privateKey: string;
}) {
  const { t } = useTranslation();
  const text = useMemo(() => renderWireGuardConfig(parts, privateKey), [parts, privateKey]);
  const file = configFileName(device.name);
  const textId = useId();
  const hintId = useId();
  const area = useRef<HTMLTextAreaElement>(null);

  const copy = async () => {
    if (await copyText(text)) {
      notify.success('vpn.config.copied');
      return;
    }
    area.current?.focus();
    area.current?.select();
    notify.danger('vpn.config.copy_failed');
  };

  const download = () => {
    saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), file);
  };

  return (
    <>
      <p
        className="flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        data-testid="vpn-config-once"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          className="mt-0.5 size-4 shrink-0"
        >
          <path d="M12 3l10 18H2zm0 7v5m0 3h.01" />
        </svg>
        <span>{t('vpn.config.once')}</span>
      </p>
      <div className="grid gap-5 sm:grid-cols-[auto_minmax(0,1fr)]">
        <figure className="flex flex-col items-center gap-2">
          <QrImage text={text} name={device.name} />
          <figcaption className="max-w-64 text-center text-xs text-slate-600">
            {t('vpn.config.scan')}
          </figcaption>
        </figure>
        <div className="flex min-w-0 flex-col gap-2">
          <label htmlFor={textId} className="text-sm font-medium text-slate-800">
            {t('vpn.config.file')}
          </label>
          <textarea
            ref={area}
            id={textId}
            readOnly
            wrap="off"
            spellCheck={false}
            rows={text.trimEnd().split('\n').length}
            value={text}
            aria-describedby={hintId}
            data-testid="vpn-config-text"
            className="w-full resize-none overflow-x-auto rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p id={hintId} className="text-xs text-slate-600">
            {t('vpn.config.file_hint')}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={copy}>
              {t('vpn.config.copy')}
            </Button>
            <Button variant="secondary" onClick={download}>
              {t('vpn.config.download', { file })}
            </Button>
          </div>
        </div>
      </div>
    </>
  );
}

/** The QR code as an image whose name says what it holds; the same text is beside it. */
function QrImage({ text, name }: { text: string; name: string }) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState<{ text: string; markup: string }>();
  useEffect(() => {
    let current = true;
    qrSvg(text).then(
      (markup) => current && setSvg({ text, markup }),
      (error: unknown) => console.error(error),
    );
    return () => {
      current = false;
    };
  }, [text]);
  if (svg?.text !== text) {
    return (
      <div
        role="status"
        className="flex size-64 items-center justify-center rounded-lg border border-slate-200 bg-white text-brand-500"
      >
        <Spinner decorative />
        <span className="sr-only">{t('vpn.config.qr_loading')}</span>
      </div>
    );
  }
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.markup)}`}
      alt={t('vpn.config.qr_alt', { name })}
      className="size-64 rounded-lg border border-slate-200 bg-white p-1"
      data-testid="vpn-config-qr"
    />
  );
}
