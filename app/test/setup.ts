import { beforeEach } from 'vitest';
import { initI18n } from '../i18n/i18n.ts';
import { closeAllModals } from '../ui/modal-flags.ts';
import '../styles.css';

// Components are tested in English with the real message files, so a missing key shows.
await initI18n('en', { eager: true });

// Every test file runs in its own frame, but the frames share one origin and so one
// localStorage and sessionStorage: a user record stored by one file would send the next
// file's first navigation to the server for an auth check. Each test starts clean, with no
// §4 modal flag left open by the test before (a flag already set does not reopen its dialog).
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  closeAllModals();
});
