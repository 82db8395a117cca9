import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailPlus, RotateCw, Trash2, UserMinus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { del, get, patch, post } from '../api/client';
import type { ApiData, OrgRole } from '../api/types';
import { useMe, useOrganization } from '../auth/session';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import ApiKeysSection from './ApiKeysSection';

const ROLES: { value: OrgRole; label: string; hint: string }[] = [
  { value: 'org_admin', label: 'Administrator', hint: 'manages members; admin of every vendor' },
  { value: 'analyst', label: 'Analyst', hint: 'works on every vendor (documents, assessments, questionnaires)' },
  { value: 'viewer', label: 'Viewer', hint: 'reads and asks questions' },
];
const roleLabel = (r: OrgRole) => ROLES.find((x) => x.value === r)?.label ?? r;

/** Administration of the organization: members and their roles, invitations (send, resend, revoke). */
export default function OrganizationPage() {
  useTitle('Organization');
  const org = useOrganization().data!;
  const me = useMe().data!;
  const isAdmin = org.myRole === 'org_admin';
  const qc = useQueryClient();
  const toast = useToast();
  const base = `/organizations/${encodeURIComponent(org.id)}`;
  const members = useQuery({
    queryKey: ['org-members', org.id],
    queryFn: async () => (await get<ApiData<'listOrganizationMembers'>>(`${base}/members`)).members,
  });
  const invitations = useQuery({
    queryKey: ['org-invitations', org.id],
    enabled: isAdmin,
    queryFn: async () => (await get<ApiData<'listInvitations'>>(`${base}/invitations`)).invitations,
  });
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['org-members', org.id] }),
      qc.invalidateQueries({ queryKey: ['org-invitations', org.id] }),
      qc.invalidateQueries({ queryKey: ['organization'] }),
    ]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrgRole>('analyst');
  const invite = useMutation({
    mutationFn: (v: { email: string; role: OrgRole }) => post<ApiData<'inviteMember'>>(`${base}/invite`, v),
    onSuccess: async (_d, v) => {
      await refresh();
      setEmail('');
      toast.show(`Invitation sent to ${v.email}`, 'success');
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => del(`${base}/invitations/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      await refresh();
      toast.show('Invitation revoked', 'success');
    },
  });
  const change = useMutation({
    mutationFn: (v: { userId: string; role: OrgRole }) => patch(`${base}/members/${encodeURIComponent(v.userId)}`, { role: v.role }),
    onSuccess: async () => {
      await refresh();
      toast.show('Role changed', 'success');
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => del(`${base}/members/${encodeURIComponent(userId)}`),
    onSuccess: async (_d, userId) => {
      await refresh();
      toast.show(userId === me.id ? 'You left the organization' : 'Member removed', 'success');
      if (userId === me.id) window.location.assign('/onboarding');
    },
  });
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Organization</h1>
          <p className="page-sub">
            {org.name} · {org.memberCount} member{org.memberCount === 1 ? '' : 's'} · your role: {roleLabel(org.myRole)}
          </p>
        </div>
      </header>
      {isAdmin && (
        <section className="card" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite a colleague</h2>
          <form
            className="form"
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              invite.mutate({ email: email.trim(), role });
            }}
          >
            <div className="form-row">
              <Field label="E-mail address" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
              <div className="field">
                <label htmlFor="invite-role">Role</label>
                <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as OrgRole)}>
                  {ROLES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}: {r.hint}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="submit" variant="primary" icon={<MailPlus size={16} aria-hidden="true" />} busy={invite.isPending}>
                Send invitation
              </Button>
            </div>
            {invite.isError && <ErrorMessage error={invite.error} title="The invitation was not sent" />}
          </form>
        </section>
      )}
      {isAdmin && (
        <section className="card" aria-labelledby="inv-title">
          <h2 id="inv-title">Pending invitations</h2>
          {invitations.isPending ? (
            <Loading inline label="Loading invitations…" />
          ) : invitations.isError ? (
            <ErrorMessage error={invitations.error} onRetry={() => invitations.refetch()} />
          ) : invitations.data.length === 0 ? (
            <p className="muted">No pending invitation.</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">Pending invitations</caption>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Sent</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.data.map((i) => (
                    <tr key={i.id}>
                      <td>{i.email}</td>
                      <td>{roleLabel(i.role)}</td>
                      <td>{formatDateTime(i.createdAt)}</td>
                      <td>{formatDateTime(i.expiresAt)}</td>
                      <td style={{ whiteSpace: 'nowrap' }}>
                        <Button
                          size="sm"
                          icon={<RotateCw size={14} aria-hidden="true" />}
                          aria-label={`Resend the invitation to ${i.email}`}
                          onClick={() => invite.mutate({ email: i.email, role: i.role })}
                        >
                          Resend
                        </Button>{' '}
                        <Button
                          size="sm"
                          variant="danger"
                          icon={<Trash2 size={14} aria-hidden="true" />}
                          aria-label={`Revoke the invitation to ${i.email}`}
                          onClick={() => revoke.mutate(i.id)}
                        >
                          Revoke
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {revoke.isError && <ErrorMessage error={revoke.error} />}
        </section>
      )}
      {isAdmin && <ApiKeysSection orgId={org.id} />}
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {members.isPending ? (
          <Loading inline label="Loading members…" />
        ) : members.isError ? (
          <ErrorMessage error={members.error} onRetry={() => members.refetch()} />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Members of {org.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((m) => (
                  <tr key={m.user.id}>
                    <td>
                      {m.user.name}
                      {m.user.id === me.id && <span className="muted small"> (you)</span>}
                    </td>
                    <td>{m.user.email}</td>
                    <td>
                      {isAdmin && m.user.id !== me.id ? (
                        <select
                          aria-label={`Role of ${m.user.name}`}
                          className="input"
                          // While the change is on its way, the role asked for (not the old one).
                          value={change.isPending && change.variables.userId === m.user.id ? change.variables.role : m.role}
                          disabled={change.isPending}
                          onChange={(e) => {
                            remove.reset();
                            change.mutate({ userId: m.user.id, role: e.target.value as OrgRole });
                          }}
                        >
                          {ROLES.map((r) => (
                            <option key={r.value} value={r.value}>
                              {r.label}
                            </option>
                          ))}
                        </select>
                      ) : (
                        roleLabel(m.role)
                      )}
                    </td>
                    <td>{formatDateTime(m.joinedAt)}</td>
                    <td>
                      {(isAdmin || m.user.id === me.id) && (
                        <Button
                          size="sm"
                          variant="danger"
                          icon={<UserMinus size={14} aria-hidden="true" />}
                          onClick={() =>
                            window.confirm(
                              m.user.id === me.id ? 'Leave the organization? You lose access to every vendor.' : `Remove ${m.user.name} from ${org.name}?`,
                            ) && (change.reset(), remove.mutate(m.user.id))
                          }
                        >
                          {m.user.id === me.id ? 'Leave' : 'Remove'}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {change.isError && <ErrorMessage error={change.error} title="The role was not changed" />}
        {remove.isError && <ErrorMessage error={remove.error} title="Not removed" />}
      </section>
    </div>
  );
}
