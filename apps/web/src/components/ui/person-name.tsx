import { createContext, type ReactNode, useContext } from 'react';

/** How a page shows a person's name: by default plain text; features/people makes it open a card. */
export type PersonRenderer = (person: { email: string; name: string; children: ReactNode }) => ReactNode;

export const PersonRendererContext = createContext<PersonRenderer | null>(null);

/**
 * A person named in a shared component (a message's sender, an @mention): rendered by the page's
 * `PersonRendererContext` when there is one (a button opening the profile card), as is otherwise.
 */
export function PersonName({ email, name, children }: { email: string; name: string; children: ReactNode }) {
  const render = useContext(PersonRendererContext);
  return render ? render({ email, name, children }) : children;
}
