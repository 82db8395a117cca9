import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate, useOutletContext } from 'react-router';
import { del, patch, post } from '../api/client';
import type { Permissions } from '../api/types';
import { useMe } from '../auth/session';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { useToast } from '../ui/Toasts';
import { vendorKey, vendorsKey } from '../vendors/api';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { McpSources } from './McpSources';

const FLAGS: { key: keyof Permissions; label: string }[] = [
  { key: 'canQuery', label: 'Ask' },
  { key: 'canViewSources', label: 'See documents' },
  { key: 'canManageSync', label: 'Manage documents, assessments, questionnaires' },
  { key: 'canInvite', label: 'Manage members' },
];
const RANK = { owner: 4, admin: 3, member: 2, viewer: 1 } as const;

/** A vendor's administration: members and permissions, transfer and leave, sync schedule, MCP sources. */
export default function VendorSettingsTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const w = vendor;
  const me = useMe().data!;
  const qc = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const base = `/workspaces/${encodeURIComponent(w.id)}`;
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: vendorKey(w.workspaceId) }), qc.invalidateQueries({ queryKey: vendorsKey })]);
  const act = useMutation({
    mutationFn: async (a: { kind: 'add' | 'role' | 'flag' | 'remove' | 'transfer' | 'leave' | 'schedule' | 'manage'; body?: unknown; userId?: string }) => {
      if (a.kind === 'add') return post(`${base}/members`, a.body);
      if (a.kind === 'role' || a.kind === 'flag') return patch(`${base}/members/${encodeURIComponent(a.userId!)}`, a.body);
      if (a.kind === 'remove') return del(`${base}/members/${encodeURIComponent(a.userId!)}`);
      if (a.kind === 'transfer') return post(`${base}/transfer`, a.body);
      if (a.kind === 'leave') return post(`${base}/leave`);
      return patch(base, a.body);
    },
    onSuccess: async (_d, a) => {
      if (a.kind === 'leave') {
        await qc.invalidateQueries({ queryKey: vendorsKey });
        toast.show(`You left ${w.workspaceName}`, 'success');
        navigate('/vendors');
        return;
      }
      await refresh();
      toast.show(
        {
          add: 'Member added',
          role: 'Role changed',
          flag: 'Permission changed',
          remove: 'Member removed',
          transfer: 'Ownership transferred',
          schedule: 'Sync schedule saved',
          manage: 'Vendor owner and lifecycle saved',
        }[a.kind],
        'success',
      );
    },
  });
  const [flagAsked, setFlagAsked] = useState<{ userId: string; key: keyof Permissions; value: boolean } | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [newOwner, setNewOwner] = useState('');
  const [enabled, setEnabled] = useState(w.syncSchedule.enabled);
  const [hours, setHours] = useState(w.syncSchedule.intervalHours);
  const myRank = RANK[w.myRole as keyof typeof RANK] ?? 0;
  const canInvite = w.permissions.canInvite;
  const isOwner = w.myRole === 'owner';
  const members = w.members.filter((m) => m.status === 'active');
  const [vendorOwner, setVendorOwner] = useState(w.vendorOwnerId ?? '');
  const [lifecycle, setLifecycle] = useState<string>(w.lifecycle ?? 'active');
  return (
    <div>
      <h2>Settings</h2>
      {act.isError && <ErrorMessage error={act.error} title="That did not work" />}
      <section className="card" aria-labelledby="ws-manage">
        <h3 id="ws-manage">Vendor management</h3>
        <p className="muted small">
          Reviewed every {w.reviewCycleMonths ?? 24} months at this vendor's tier; signing off an assessment sets the next review one cycle later.
        </p>
        <form
          className="form-row"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            act.mutate({ kind: 'manage', body: { vendorOwnerId: vendorOwner || null, lifecycle } });
          }}
        >
          <div className="field">
            <label htmlFor="ws-vendor-owner">Vendor owner</label>
            <select id="ws-vendor-owner" value={vendorOwner} onChange={(e) => setVendorOwner(e.target.value)} disabled={!w.permissions.canEditSettings}>
              <option value="">Not named</option>
              {members.map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.user.name} ({m.user.email})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ws-lifecycle">Lifecycle</label>
            <select id="ws-lifecycle" value={lifecycle} onChange={(e) => setLifecycle(e.target.value)} disabled={!w.permissions.canEditSettings}>
              <option value="onboarding">Onboarding</option>
              <option value="active">Active</option>
              <option value="exiting">Exiting</option>
              <option value="exited">Exited</option>
            </select>
          </div>
          {w.permissions.canEditSettings && (
            <Button type="submit" variant="primary" busy={act.isPending && act.variables?.kind === 'manage'}>
              Save
            </Button>
          )}
        </form>
      </section>
      <section className="card" aria-labelledby="ws-members">
        <h3 id="ws-members">Members and permissions</h3>
        <p className="muted small">
          Everyone in the organization has access through their organization role; a role set here for one person applies to this vendor only.
        </p>
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Members of {w.workspaceName}</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                {FLAGS.map((f) => (
                  <th key={f.key} scope="col">
                    {f.label}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const manageable = canInvite && m.user.id !== me.id && m.role !== 'owner' && (isOwner || RANK[m.role] < myRank);
                return (
                  <tr key={m.user.id}>
                    <td>
                      {m.user.name}
                      <div className="muted small">
                        {m.user.email}
                        {m.membership === 'organization' ? ' · through the organization' : ''}
                      </div>
                    </td>
                    <td>
                      {manageable ? (
                        <select
                          className="input"
                          aria-label={`Role of ${m.user.name}`}
                          value={
                            act.isPending && act.variables.kind === 'role' && act.variables.userId === m.user.id
                              ? (act.variables.body as { role: string }).role
                              : m.role
                          }
                          disabled={act.isPending}
                          onChange={(e) => act.mutate({ kind: 'role', userId: m.user.id, body: { role: e.target.value } })}
                        >
                          {(['admin', 'member', 'viewer'] as const)
                            .filter((r) => isOwner || RANK[r] < myRank)
                            .map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                        </select>
                      ) : (
                        <span className="cap">{m.role}</span>
                      )}
                    </td>
                    {FLAGS.map((f) => {
                      // While a change of this flag is on its way, the box shows the value asked for.
                      const asked = flagAsked?.userId === m.user.id && flagAsked.key === f.key ? flagAsked.value : undefined;
                      return (
                        <td key={f.key}>
                          <input
                            type="checkbox"
                            aria-label={`${f.label}: ${m.user.name}`}
                            checked={asked ?? m.permissions[f.key]}
                            disabled={!manageable || act.isPending || (!m.permissions[f.key] && !w.permissions[f.key])}
                            onChange={(e) => {
                              setFlagAsked({ userId: m.user.id, key: f.key, value: e.target.checked });
                              act.mutate(
                                { kind: 'flag', userId: m.user.id, body: { permissions: { [f.key]: e.target.checked } } },
                                { onSettled: () => setFlagAsked(null) },
                              );
                            }}
                          />
                        </td>
                      );
                    })}
                    <td>
                      {manageable && (
                        <Button
                          size="sm"
                          variant="danger"
                          onClick={() =>
                            window.confirm(`Remove ${m.user.name}'s access to ${w.workspaceName}?`) && act.mutate({ kind: 'remove', userId: m.user.id })
                          }
                        >
                          Remove
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {canInvite && (
          <form
            className="form"
            style={{ marginTop: 14 }}
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              act.mutate({ kind: 'add', body: { email: email.trim(), role } });
              setEmail('');
            }}
          >
            <div className="form-row">
              <Field label="Add a member of the organization (e-mail)" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
              <div className="field">
                <label htmlFor="ws-add-role">Role</label>
                <select id="ws-add-role" value={role} onChange={(e) => setRole(e.target.value)}>
                  {(['admin', 'member', 'viewer'] as const)
                    .filter((r) => isOwner || RANK[r] < myRank)
                    .map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                </select>
              </div>
              <Button type="submit" icon={<UserPlus size={16} aria-hidden="true" />}>
                Add
              </Button>
            </div>
          </form>
        )}
      </section>

      <section className="card" aria-labelledby="ws-schedule">
        <h3 id="ws-schedule">Sync schedule</h3>
        <p className="muted small">Re-reads every data source and MCP source of this vendor at the interval.</p>
        <form
          style={{ display: 'flex', gap: 16, alignItems: 'flex-end', flexWrap: 'wrap' }}
          onSubmit={(e) => {
            e.preventDefault();
            act.mutate({ kind: 'schedule', body: { syncSchedule: { enabled, intervalHours: hours } } });
          }}
        >
          <label style={{ display: 'flex', gap: 8, alignItems: 'center', minHeight: 38 }}>
            <input type="checkbox" checked={enabled} disabled={!isOwner} onChange={(e) => setEnabled(e.target.checked)} /> Sync on a schedule
          </label>
          <Field
            label="Every (hours)"
            type="number"
            min={1}
            max={720}
            value={hours}
            disabled={!isOwner}
            onChange={(e) => setHours(e.target.valueAsNumber || 1)}
            className="field-short"
          />
          {isOwner ? <Button type="submit">Save the schedule</Button> : <p className="muted small">Only the owner changes the schedule.</p>}
        </form>
      </section>

      <McpSources ws={w.workspaceId} workspaceId={w.id} canManage={w.permissions.canManageSync} />

      <section className="card" aria-labelledby="ws-ownership">
        <h3 id="ws-ownership">Ownership</h3>
        <p>
          Owner: <strong>{w.owner.name}</strong> ({w.owner.email})
        </p>
        {isOwner ? (
          <form
            style={{ display: 'flex', gap: 12, alignItems: 'flex-end', flexWrap: 'wrap' }}
            onSubmit={(e) => {
              e.preventDefault();
              const m = members.find((x) => x.user.id === newOwner);
              if (m && window.confirm(`Make ${m.user.name} the owner of ${w.workspaceName}? You become an admin.`))
                act.mutate({ kind: 'transfer', body: { newOwnerId: newOwner } });
            }}
          >
            <div className="field">
              <label htmlFor="new-owner">Transfer ownership to</label>
              <select id="new-owner" value={newOwner} onChange={(e) => setNewOwner(e.target.value)}>
                <option value="">Choose a member…</option>
                {members
                  .filter((m) => m.user.id !== me.id)
                  .map((m) => (
                    <option key={m.user.id} value={m.user.id}>
                      {m.user.name} ({m.user.email})
                    </option>
                  ))}
              </select>
            </div>
            <Button type="submit" variant="danger" disabled={!newOwner}>
              Transfer ownership
            </Button>
          </form>
        ) : (
          <Button
            variant="danger"
            icon={<LogOut size={16} aria-hidden="true" />}
            onClick={() => window.confirm(`Leave ${w.workspaceName}? You lose access to it.`) && act.mutate({ kind: 'leave' })}
          >
            Leave this vendor
          </Button>
        )}
      </section>
    </div>
  );
}
