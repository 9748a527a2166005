/**
 * Puts the link on the clipboard; false where there is none (an insecure page, a refused
 * permission), and the caller selects the text for the user to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
