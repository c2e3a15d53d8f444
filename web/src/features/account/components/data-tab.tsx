import type { BuyerAccountSession } from '@forgeline/contracts/account';
import { Download, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { ACCOUNT_EXPORT_URL } from '../api/export-account.ts';
import { useDeleteCompany } from '../api/delete-company.ts';
import { failed } from '../field-errors.ts';
import { AccountDialog } from './account-dialog.tsx';
import { FormError } from './section-states.tsx';

const card = 'rounded-lg border border-zinc-200 bg-white p-5';
const h3 = 'font-display text-xl font-extrabold uppercase text-ink';

/** The Your data tab: everything the account holds, to take away; the account deleted; for admins, the company. */
export default function DataTab({ session }: { session: BuyerAccountSession }) {
  const isAdmin = session.company.role === 'admin';
  return (
    <section aria-labelledby="data-heading" className="space-y-6">
      <h2 id="data-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
        Your data
      </h2>
      <div className={card}>
        <h3 className={h3}>Download</h3>
        <p className="mt-1 max-w-2xl text-sm text-steel">
          Everything your account holds about you and {session.company.name}: you and your role, the company and its people, its machines and its parts lists,
          as one JSON file.
        </p>
        <a href={ACCOUNT_EXPORT_URL} download className={buttonClass('outline', 'sm', 'mt-4')}>
          <Download className="size-4" aria-hidden="true" /> Download my data (JSON)
        </a>
      </div>
      <DeleteAccount companyName={session.company.name} />
      {isAdmin ? <DeleteCompany companyName={session.company.name} /> : null}
    </section>
  );
}

function DeleteAccount({ companyName }: { companyName: string }) {
  const del = useDeleteAccount();
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <div className={card}>
      <h3 className={h3}>Delete my account</h3>
      <p className="mt-1 max-w-2xl text-sm text-steel">
        You leave {companyName} and this browser is signed out. Your quotes and orders are kept for the seller&apos;s records, with your details taken out.
      </p>
      <ConfirmDialog
        trigger={
          <Button variant="ghost" className="mt-4 border border-red-300 text-red-800 hover:bg-red-50" onClick={() => setProblem(null)}>
            <Trash2 className="size-4" aria-hidden="true" /> Delete my account
          </Button>
        }
        title="Delete your account?"
        description={
          <>
            You leave {companyName}, and the company goes too if you are its last member. Your quotes and orders are kept for the seller&apos;s records, with your
            details removed. This cannot be undone.
            {problem ? (
              <span role="alert" className="mt-2 block font-semibold text-red-700">
                {problem}
              </span>
            ) : null}
          </>
        }
        confirmLabel="Delete my account"
        pendingLabel="Deleting..."
        pending={del.isPending}
        onConfirm={(close) =>
          del.mutate(undefined, {
            onSuccess: () => {
              close();
              toast.success('Your account is deleted', { description: 'Your quotes and orders stay with the seller, without your details.' });
            },
            onError: (err) => setProblem(failed(err, 'Your account was not deleted.')),
          })
        }
      />
    </div>
  );
}

/** Deleting the company is asked for by typing its name: it takes every member's access and the company's data. */
function DeleteCompany({ companyName }: { companyName: string }) {
  const ids = useId();
  const del = useDeleteCompany();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === companyName.trim();
  return (
    <div className={card}>
      <h3 className={h3}>Delete the company</h3>
      <p className="mt-1 max-w-2xl text-sm text-steel">
        For admins: {companyName} goes, with its machines and parts lists, for every member. Every member&apos;s quotes and orders are kept for the seller&apos;s
        records, with the person&apos;s details taken out.
      </p>
      <AccountDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          setTyped('');
          del.reset();
        }}
        title={`Delete ${companyName}?`}
        description="Its machines, parts lists, people and invitations go; every member's quotes and orders are kept for the seller's records, without their details. You are signed out. This cannot be undone."
        trigger={
          <Button variant="ghost" className="mt-4 border border-red-300 text-red-800 hover:bg-red-50">
            <Trash2 className="size-4" aria-hidden="true" /> Delete the company
          </Button>
        }
      >
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!matches) return;
            del.mutate(undefined, { onSuccess: () => toast.success('The company is deleted', { description: companyName }) });
          }}
        >
          <label htmlFor={`${ids}-confirm`} className="block text-sm font-semibold text-ink">
            Type the company&apos;s name, <span className="break-words font-mono">{companyName}</span>, to confirm
          </label>
          <input
            id={`${ids}-confirm`}
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
            className={`${formControlClass} w-full`}
          />
          {del.isError ? <FormError>{failed(del.error, 'The company was not deleted.')}</FormError> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!matches || del.isPending} className="bg-red-700 text-white hover:bg-red-800">
              {del.isPending ? 'Deleting...' : 'Delete the company'}
            </Button>
          </div>
        </form>
      </AccountDialog>
    </div>
  );
}
