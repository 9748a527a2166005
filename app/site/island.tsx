import type { ComponentProps } from 'react';
import { AccountLink } from './account-link.tsx';
import { HelpSearch } from './pages/help-search.tsx';
import { WasThisHelpful } from './pages/was-this-helpful.tsx';

// The parts of a public page that need a script (issue 23): everything else is plain HTML
// that works as sent. Each island is hydrated on its own from the props it carries in the
// page (site/hydrate-site.tsx), so a page sends no copy of its content for hydration.

export const ISLANDS = {
  'account-link': AccountLink,
  'help-search': HelpSearch,
  'was-this-helpful': WasThisHelpful,
} as const;
export type IslandName = keyof typeof ISLANDS;

export function Island<N extends IslandName>({
  name,
  props,
}: {
  name: N;
  props: ComponentProps<(typeof ISLANDS)[N]>;
}) {
  // The props were checked against this island's component by the signature above.
  const Component = ISLANDS[name] as (props: object) => React.ReactNode;
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="contents">
      <Component {...props} />
    </div>
  );
}
