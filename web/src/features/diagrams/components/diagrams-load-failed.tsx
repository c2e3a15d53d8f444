import { RotateCcw, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';

/** A parts-diagram page whose data did not load: what failed, and a way to ask again. */
export function DiagramsLoadFailed({ title, retry, retrying, children }: { title: string; retry: () => void; retrying: boolean; children: ReactNode }) {
  return (
    <StateMessage
      headingLevel={1}
      icon={TriangleAlert}
      tone="error"
      title={title}
      actions={
        <Button variant="dark" onClick={retry} disabled={retrying}>
          <RotateCcw className="size-4" aria-hidden="true" /> {retrying ? 'Trying again...' : 'Try again'}
        </Button>
      }
    >
      {children}
    </StateMessage>
  );
}
