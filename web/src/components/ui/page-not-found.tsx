import type { LucideIcon } from 'lucide-react';
import { Home, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink } from './button.tsx';
import { StateMessage } from './state-message.tsx';

/**
 * What a listing or detail page shows in place of itself when its data cannot be loaded: the page's h1 as an
 * error state and a way back home (then any `moreActions`).
 */
export function PageNotFound({
  icon = TriangleAlert,
  title,
  children,
  moreActions,
}: {
  icon?: LucideIcon;
  title: string;
  children: ReactNode;
  moreActions?: ReactNode;
}) {
  return (
    <StateMessage
      headingLevel={1}
      icon={icon}
      tone="error"
      title={title}
      actions={
        <>
          <ButtonLink to="/" variant="dark">
            <Home className="size-4" aria-hidden="true" /> Back to Home
          </ButtonLink>
          {moreActions}
        </>
      }
    >
      {children}
    </StateMessage>
  );
}
