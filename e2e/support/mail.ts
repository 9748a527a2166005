import { type APIRequestContext, expect } from '@playwright/test';

const mailBase = `http://127.0.0.1:${process.env.E2E_MAIL_PORT ?? 4319}`;

export interface CaughtMail {
  subject: string;
  text: string;
  links: string[];
  /** Header values by lower-case name, as sent (a repeated header: its last line). */
  headers: Record<string, string>;
}

/** The messages the app sent to `to` through the mail catcher's real SMTP server. */
export async function mailTo(request: APIRequestContext, to: string): Promise<CaughtMail[]> {
  const response = await request.get(`${mailBase}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as CaughtMail[];
}

/** Waits for the `nth` message (1-based) to `to` and returns its first link. */
export async function linkFromMail(
  request: APIRequestContext,
  to: string,
  nth = 1,
): Promise<string> {
  let mails: CaughtMail[] = [];
  await expect
    .poll(async () => {
      mails = await mailTo(request, to);
      return mails.length;
    })
    .toBeGreaterThanOrEqual(nth);
  const link = mails[nth - 1]?.links[0];
  if (!link) throw new Error(`no link in message ${nth} to ${to}`);
  return link;
}
