import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useBuyerSession } from '../api/get-session.ts';
import { QuoteListAccessContext, type QuoteListAccess } from '../quote-list-access.ts';
import { LoadError } from './section-states.tsx';
import { SignInForm } from './sign-in-form.tsx';
import { SignedInAccount } from './signed-in-account.tsx';

/**
 * /account and /account/sign-in (issue 35): a buyer signs in with a code mailed to them, then has their account here:
 * their company's machines, parts lists, quotes and orders, the company, and their data. `quoteList` is the quote
 * list's store, handed over by the app (router.tsx): the parts lists and reorders fill the quote list with it.
 */
export default function AccountPage({ quoteList }: { quoteList: QuoteListAccess }) {
  const session = useBuyerSession();
  useDocumentTitle(session.data === null ? 'Sign in' : 'Your account');
  if (session.isPending) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10 sm:py-14">
        <Spinner label="Loading your account..." />
      </div>
    );
  }
  if (session.isError) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10 sm:py-14">
        <h1 className="mb-4 font-display text-3xl font-extrabold uppercase text-ink">Your account</h1>
        <LoadError title="Your account did not load." error={session.error} onRetry={() => void session.refetch()} retrying={session.isFetching} />
      </div>
    );
  }
  if (!session.data) {
    return (
      <div className="mx-auto max-w-lg px-4 py-10 sm:py-14">
        <SignInForm />
      </div>
    );
  }
  return (
    <QuoteListAccessContext value={quoteList}>
      <SignedInAccount session={session.data} />
    </QuoteListAccessContext>
  );
}
