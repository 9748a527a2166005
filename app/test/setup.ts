import { initI18n } from '../i18n/i18n.ts';
import '../styles.css';

// Components are tested in English with the real message files, so a missing key shows.
await initI18n('en');
