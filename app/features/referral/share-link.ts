export interface ShareMessage {
  title: string;
  text: string;
  url: string;
}

/**
 * The system's share sheet where the browser has one; otherwise a new e-mail with the link.
 * Answers 'cancelled' when the user closed the sheet (nothing to say then).
 */
export async function shareLink(message: ShareMessage): Promise<'shared' | 'mailed' | 'cancelled'> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(message);
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // A share refused for another reason (no user gesture, a blocked target): mail it.
    }
  }
  window.location.href = mailtoLink(message);
  return 'mailed';
}

export function mailtoLink({ title, text, url }: ShareMessage): string {
  const subject = encodeURIComponent(title);
  const body = encodeURIComponent(`${text}\n\n${url}`);
  return `mailto:?subject=${subject}&body=${body}`;
}
