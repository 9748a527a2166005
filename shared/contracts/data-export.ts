import { z } from 'zod';
import { TOKEN_PATTERN } from '../challenge.ts';
import { endpoint } from './endpoint.ts';

// Issue 25 "a customer's data, theirs": the account page asks for a copy of everything we hold
// about the person; a durable job builds it as a ZIP of JSON files (and the invoice PDFs) and
// mails a link that downloads it once, within 24 hours. One export is built at a time, and a
// new one may be asked for a day after the last (a failed one does not count).

/** Message keys these calls answer with (data-export.json). */
export const DATA_EXPORT_MESSAGES = {
  inProgress: 'data_export.errors.in_progress',
  tooSoon: 'data_export.errors.too_soon',
  /** Unknown, malformed, or another person's link: nothing to tell apart for the caller. */
  linkInvalid: 'data_export.errors.link_invalid',
  linkUsed: 'data_export.errors.link_used',
  linkExpired: 'data_export.errors.link_expired',
} as const;

/** How long the mailed link works, and how long after a request the next one is taken. */
export const DATA_EXPORT_LINK_HOURS = 24;
export const DATA_EXPORT_REQUEST_EVERY_HOURS = 24;

/** The route the mailed link opens (below `/{lang}/`), carrying `?challenge=` with the token. */
export const DATA_EXPORT_PAGE_PATH = 'account/data-export';

/** The name the archive is saved under. */
export const DATA_EXPORT_FILE_NAME = 'shieldline-data.zip';

export const dataExportState = z.enum(['pending', 'ready', 'failed', 'downloaded', 'expired']);
export type DataExportStateName = z.infer<typeof dataExportState>;

/** The person's latest export, as the account page shows it. */
export const dataExportView = z.object({
  state: dataExportState,
  requested_at: z.iso.datetime({ offset: true }),
  /** Until when the mailed link works (state `ready`). */
  expires_at: z.iso.datetime({ offset: true }).nullable(),
  downloaded_at: z.iso.datetime({ offset: true }).nullable(),
});
export type DataExportView = z.infer<typeof dataExportView>;

export const dataExportStatusResponse = z.object({
  /** Null until the person first asks for one. */
  export: dataExportView.nullable(),
  /** When a new request will be taken; null: now (or once the one being built is done). */
  next_request_at: z.iso.datetime({ offset: true }).nullable(),
});
export type DataExportStatusResponse = z.infer<typeof dataExportStatusResponse>;

/** The token of the mailed link (the challenge the page was opened with holds it). */
export const dataExportDownloadRequest = z.object({
  token: z.string().regex(TOKEN_PATTERN, DATA_EXPORT_MESSAGES.linkInvalid),
});
export type DataExportDownloadRequest = z.infer<typeof dataExportDownloadRequest>;

const account = { base: 'account', tag: 'data-export' } as const;

export const dataExportEndpoints = {
  status: endpoint({
    ...account,
    access: 'active',
    method: 'GET',
    path: '/data-export',
    summary: 'The latest export of the person’s data and when a new one may be asked for',
    response: dataExportStatusResponse,
  }),
  request: endpoint({
    ...account,
    access: 'active',
    method: 'POST',
    path: '/data-export',
    summary: 'Ask for an export of the person’s data: built in the background, then mailed',
    response: dataExportStatusResponse,
  }),
  /**
   * A POST so that the single-use token travels in the body, never in a URL that proxies and
   * logs keep, and no link prefetcher spends it. Open to a deactivated account too: its data
   * is still its own until the purge. Answers the ZIP as an attachment.
   */
  download: endpoint({
    ...account,
    access: 'signed-in',
    method: 'POST',
    path: '/data-export/download',
    summary: 'Download the export once with the token of the mailed link (a ZIP)',
    body: dataExportDownloadRequest,
    produces: 'zip',
  }),
};
