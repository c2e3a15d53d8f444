import type { BuyerAccountSession, CompanyInvite, CompanyMember, CompanyResponse, CompanyRole } from '@forgeline/contracts/account';
import { Building2, MailPlus, Pencil, UserMinus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCompany } from '../api/get-company.ts';
import { useInviteMember } from '../api/invite-member.ts';
import { useRemoveMember } from '../api/remove-member.ts';
import { useRenameCompany } from '../api/rename-company.ts';
import { useSetMemberRole } from '../api/set-member-role.ts';
import { useWithdrawInvite } from '../api/withdraw-invite.ts';
import { ACCOUNT_LIMITS, COMPANY_ROLES, ROLE_LABELS } from '../account-constants.ts';
import { failed, fieldErrors } from '../field-errors.ts';
import { compactSelectClass, formatDate } from '../format.ts';
import { FormError, LoadError } from './section-states.tsx';

const card = 'rounded-lg border border-zinc-200 bg-white p-5';
const h3 = 'font-display text-xl font-extrabold uppercase text-ink';

/**
 * The Company tab: its name (admins rename it), its people and their roles (admins change them and remove people;
 * anyone can leave), and, for admins, the invitations. What the API refuses (403, 409) is said as it says it.
 */
export default function CompanyTab({ session }: { session: BuyerAccountSession }) {
  const company = useCompany();
  const isAdmin = session.company.role === 'admin';
  return (
    <section aria-labelledby="company-heading" className="space-y-6">
      <h2 id="company-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
        Company
      </h2>
      {company.isPending ? (
        <Spinner label="Loading your company..." />
      ) : company.isError ? (
        <LoadError title="Your company did not load." error={company.error} onRetry={() => void company.refetch()} retrying={company.isFetching} />
      ) : (
        <>
          <CompanyName data={company.data} isAdmin={isAdmin} />
          <Members data={company.data} me={session.email} isAdmin={isAdmin} />
          {isAdmin ? <Invitations invites={company.data.invites} /> : null}
        </>
      )}
    </section>
  );
}

function CompanyName({ data, isAdmin }: { data: CompanyResponse; isAdmin: boolean }) {
  const ids = useId();
  const rename = useRenameCompany();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(data.company.name);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('The company needs a name.');
    setProblem(null);
    rename.mutate(name.trim(), {
      onSuccess: () => {
        setEditing(false);
        toast.success('Company renamed', { description: name.trim() });
      },
      onError: (err) => setProblem(fieldErrors(err, ['name']).fields.name ?? failed(err, 'The company was not renamed.')),
    });
  };
  const { domain } = data.company;
  return (
    <div className={card}>
      <div className="flex items-start gap-3">
        <Building2 className="mt-1 size-5 shrink-0 text-steel" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          {editing ? (
            <form onSubmit={submit} noValidate className="space-y-2">
              <FieldLabel htmlFor={`${ids}-name`} required>
                Company name
              </FieldLabel>
              <input
                id={`${ids}-name`}
                value={name}
                maxLength={ACCOUNT_LIMITS.companyName}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${ids}-name-error` : undefined}
                className={`${formControlClass} w-full max-w-md`}
              />
              {problem ? <FormError id={`${ids}-name-error`}>{problem}</FormError> : null}
              <div className="flex flex-wrap gap-2">
                <Button type="submit" size="sm" disabled={rename.isPending}>
                  {rename.isPending ? 'Saving...' : 'Save the name'}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setEditing(false);
                    setName(data.company.name);
                    setProblem(null);
                  }}
                >
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="min-w-0 break-words text-lg font-bold text-ink">{data.company.name}</p>
              {isAdmin ? (
                <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                  <Pencil className="size-4" aria-hidden="true" /> Rename
                </Button>
              ) : null}
            </div>
          )}
          <p className="mt-1 break-words text-sm text-steel">
            {domain
              ? `Colleagues who sign in with an @${domain} address join it by themselves; others join by invitation.`
              : 'A company of one (a public mail address): colleagues join it by invitation.'}{' '}
            In the account since {formatDate(data.company.createdAt)}.
          </p>
        </div>
      </div>
    </div>
  );
}

function Members({ data, me, isAdmin }: { data: CompanyResponse; me: string; isAdmin: boolean }) {
  return (
    <section aria-labelledby="members-heading" className={card}>
      <h3 id="members-heading" className={h3}>
        People <span className="text-steel">({data.members.length})</span>
      </h3>
      <p className="mt-1 text-sm text-steel">
        Everyone here sees the company&apos;s machines, parts lists, quotes and orders. {isAdmin ? 'Admins also manage the company and its people.' : 'Admins manage the company and its people.'}
      </p>
      <ul aria-label="People in the company" className="mt-3 divide-y divide-zinc-200 rounded-md border border-zinc-200">
        {data.members.map((m) => (
          <MemberRow key={m.email} member={m} isMe={m.email === me} isAdmin={isAdmin} companyName={data.company.name} />
        ))}
      </ul>
    </section>
  );
}

function MemberRow({ member: m, isMe, isAdmin, companyName }: { member: CompanyMember; isMe: boolean; isAdmin: boolean; companyName: string }) {
  const ids = useId();
  const setRole = useSetMemberRole();
  const remove = useRemoveMember();
  const [problem, setProblem] = useState<string | null>(null);
  const [removeProblem, setRemoveProblem] = useState<string | null>(null);
  const changeRole = (role: CompanyRole) => {
    setProblem(null);
    setRole.mutate(
      { email: m.email, role },
      {
        onSuccess: () => toast.success('Role changed', { description: `${m.email}: ${ROLE_LABELS[role]}` }),
        onError: (err) => setProblem(failed(err, 'The role was not changed.')),
      },
    );
  };
  return (
    <li className="px-3 py-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="break-all font-semibold text-ink">
            {m.email} {isMe ? <span className="font-normal text-steel">(you)</span> : null}
          </p>
          <p className="text-sm text-steel">Joined {formatDate(m.joinedAt)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isAdmin ? (
            <>
              <label htmlFor={`${ids}-role`} className="sr-only">
                Role of {m.email}
              </label>
              <select
                id={`${ids}-role`}
                value={m.role}
                disabled={setRole.isPending}
                onChange={(e) => changeRole(e.target.value as CompanyRole)}
                className={compactSelectClass}
              >
                {COMPANY_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs font-bold uppercase text-ink">{ROLE_LABELS[m.role]}</span>
          )}
          {isMe || isAdmin ? (
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" className="border border-zinc-300" aria-label={isMe ? `Leave ${companyName}` : `Remove ${m.email} from the company`} onClick={() => setRemoveProblem(null)}>
                  <UserMinus className="size-4" aria-hidden="true" /> {isMe ? 'Leave' : 'Remove'}
                </Button>
              }
              title={isMe ? `Leave ${companyName}?` : `Remove ${m.email}?`}
              description={
                <>
                  {isMe
                    ? "You no longer see the company's machines, lists, quotes and orders; your own sign-in goes on, in a company of your own."
                    : `${m.email} no longer sees the company's machines, lists, quotes and orders.`}
                  {removeProblem ? (
                    <span role="alert" className="mt-2 block font-semibold text-red-700">
                      {removeProblem}
                    </span>
                  ) : null}
                </>
              }
              confirmLabel={isMe ? 'Leave the company' : 'Remove'}
              pendingLabel={isMe ? 'Leaving...' : 'Removing...'}
              pending={remove.isPending}
              onConfirm={(close) =>
                remove.mutate(m.email, {
                  onSuccess: () => {
                    close();
                    toast.success(isMe ? `You left ${companyName}` : 'Removed from the company', { description: isMe ? undefined : m.email });
                  },
                  onError: (err) => setRemoveProblem(failed(err, isMe ? 'You did not leave the company.' : 'They were not removed.')),
                })
              }
            />
          ) : null}
        </div>
      </div>
      {problem ? (
        <div className="mt-2">
          <FormError>{problem}</FormError>
        </div>
      ) : null}
    </li>
  );
}

function Invitations({ invites }: { invites: CompanyInvite[] }) {
  const ids = useId();
  const invite = useInviteMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<CompanyRole>('buyer');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setProblem('Give the e-mail address of the colleague to invite.');
      document.getElementById(`${ids}-email`)?.focus();
      return;
    }
    setProblem(null);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (inv) => {
          toast.success('Invitation sent', { description: `${inv.email} joins when they sign in.` });
          setEmail('');
          setRole('buyer');
        },
        onError: (err) => setProblem(fieldErrors(err, ['email', 'role']).fields.email ?? failed(err, 'The invitation was not sent.')),
      },
    );
  };
  return (
    <section aria-labelledby="invites-heading" className={card}>
      <h3 id="invites-heading" className={h3}>
        Invitations
      </h3>
      <p className="mt-1 text-sm text-steel">An invited colleague gets an e-mail, and joins the company when they sign in with that address.</p>
      <form onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-end">
        <div>
          <FieldLabel htmlFor={`${ids}-email`} required>
            E-mail
          </FieldLabel>
          <input
            id={`${ids}-email`}
            type="email"
            value={email}
            maxLength={254}
            autoComplete="off"
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${ids}-error` : undefined}
            className={`${formControlClass} w-full`}
          />
        </div>
        <div>
          <FieldLabel htmlFor={`${ids}-role`}>Role</FieldLabel>
          <select id={`${ids}-role`} value={role} onChange={(e) => setRole(e.target.value as CompanyRole)} className={`${formControlClass} w-full`}>
            {COMPANY_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={invite.isPending}>
          <MailPlus className="size-4" aria-hidden="true" /> {invite.isPending ? 'Inviting...' : 'Invite'}
        </Button>
      </form>
      {problem ? (
        <div className="mt-2">
          <FormError id={`${ids}-error`}>{problem}</FormError>
        </div>
      ) : null}
      {invites.length ? (
        <ul aria-label="Standing invitations" className="mt-4 divide-y divide-zinc-200 rounded-md border border-zinc-200">
          {invites.map((i) => (
            <InviteRow key={i.id} invite={i} />
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-steel">No invitation stands.</p>
      )}
    </section>
  );
}

function InviteRow({ invite: i }: { invite: CompanyInvite }) {
  const withdraw = useWithdrawInvite();
  return (
    <li className="px-3 py-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="break-all font-semibold text-ink">
            {i.email} <span className="font-normal text-steel">· {ROLE_LABELS[i.role]}</span>
          </p>
          <p className="break-words text-sm text-steel">
            Invited by {i.invitedBy} on {formatDate(i.createdAt)} · stands until {formatDate(i.expiresAt)}
          </p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="border border-zinc-300"
          disabled={withdraw.isPending}
          aria-label={`Withdraw the invitation of ${i.email}`}
          onClick={() => withdraw.mutate(i.id, { onSuccess: () => toast.success('Invitation withdrawn', { description: i.email }) })}
        >
          <X className="size-4" aria-hidden="true" /> {withdraw.isPending ? 'Withdrawing...' : 'Withdraw'}
        </Button>
      </div>
      {withdraw.isError ? (
        <div className="mt-2">
          <FormError>{failed(withdraw.error, 'The invitation was not withdrawn.')}</FormError>
        </div>
      ) : null}
    </li>
  );
}
