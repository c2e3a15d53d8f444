import { Compass } from 'lucide-react';
import { ButtonLink } from '../components/ui/button.tsx';
import { StateMessage } from '../components/ui/state-message.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="py-10">
      <StateMessage
        headingLevel={1}
        icon={Compass}
        title="Page Not Found"
        actions={
          <>
            <ButtonLink to="/" variant="dark">
              Back to Home
            </ButtonLink>
            <ButtonLink to="/catalog" variant="outline">
              Browse the catalog
            </ButtonLink>
          </>
        }
      >
        The page you're looking for doesn't exist or has moved.
      </StateMessage>
    </div>
  );
}
