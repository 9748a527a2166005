// The content screens (app/features/admin/content/): one chunk for the lists and the editor.
export { ContentCreatePages, ContentEditPages } from './content-editor-page.tsx';
export { ContentListPages } from './content-list-page.tsx';
