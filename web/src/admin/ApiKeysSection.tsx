import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { del, get, post } from '../api/client';
import type { ApiBody, ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';

/** The flags a key may hold (the create body's `permissions`). */
type KeyFlag = keyof ApiBody<'createApiKey'>['permissions'];
const FLAGS: { flag: KeyFlag; label: string }[] = [
  { flag: 'canQuery', label: 'Ask and read analytics' },
  { flag: 'canViewSources', label: 'View sources' },
  { flag: 'canManageSync', label: 'Manage documents and syncs' },
];
const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** API keys for systems (docs/api-keys.md): list with last use, create (shown once), revoke. org_admin only. */
export default function ApiKeysSection({ orgId }: { orgId: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  const base = `/organizations/${encodeURIComponent(orgId)}/api-keys`;
  const keys = useQuery({ queryKey: ['api-keys', orgId], queryFn: async () => (await get<ApiData<'listApiKeys'>>(base, { query: { limit: 100 } })).apiKeys });
  const workspaces = useQuery({
    queryKey: ['workspaces', 'for-keys'],
    queryFn: async () => (await get<ApiData<'listWorkspaces'>>('/workspaces', { query: { limit: 100 } })).workspaces,
  });
  const [name, setName] = useState('');
  const [expires, setExpires] = useState(inDays(90));
  const [chosen, setChosen] = useState<string[]>([]);
  const [flags, setFlags] = useState<Record<KeyFlag, boolean>>({ canQuery: true, canViewSources: false, canManageSync: false });
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      post<ApiData<'createApiKey'>>(base, {
        name: name.trim(),
        expiresAt: new Date(`${expires}T23:59:59Z`).toISOString(),
        workspaces: chosen,
        permissions: flags,
      }),
    onSuccess: async (d) => {
      setShown({ name: d.apiKey.name, key: d.key });
      setName('');
      setChosen([]);
      await qc.invalidateQueries({ queryKey: ['api-keys', orgId] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => del(`${base}/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['api-keys', orgId] });
      toast.show('API key revoked', 'success');
    },
  });
  return (
    <section className="card" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys for systems</h2>
      <p className="muted">
        A key lets a system (a GRC tool, a SIEM) call the API for the vendors and with the rights you choose, never more than yours. Send it as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {shown && (
        <div className="alert alert-success" role="status">
          <p>
            <strong>{shown.name}</strong>: copy the key now. It is not shown again.
          </p>
          <p>
            <code data-testid="new-api-key" style={{ wordBreak: 'break-all' }}>
              {shown.key}
            </code>
          </p>
          <Button
            size="sm"
            icon={<Copy size={14} aria-hidden="true" />}
            onClick={() => {
              void navigator.clipboard?.writeText(shown.key).then(() => toast.show('Key copied', 'success'));
            }}
          >
            Copy
          </Button>{' '}
          <Button size="sm" onClick={() => setShown(null)}>
            Done
          </Button>
        </div>
      )}
      <form
        className="form"
        aria-label="Create an API key"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 180px), 1fr))', gap: 12 }}>
          <Field label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} hint="What uses it, e.g. GRC nightly import" />
          <Field label="Expires on" type="date" required min={inDays(1)} max={inDays(365)} value={expires} onChange={(e) => setExpires(e.target.value)} />
        </div>
        <fieldset className="field">
          <legend>Vendors</legend>
          {workspaces.isPending ? (
            <Loading inline label="Loading vendors…" />
          ) : workspaces.isError ? (
            <ErrorMessage error={workspaces.error} onRetry={() => workspaces.refetch()} />
          ) : (
            workspaces.data.map((w) => (
              <label key={w.id} style={{ display: 'block' }}>
                <input
                  type="checkbox"
                  checked={chosen.includes(w.id)}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, w.id] : c.filter((x) => x !== w.id)))}
                />{' '}
                {w.workspaceName}
              </label>
            ))
          )}
        </fieldset>
        <fieldset className="field">
          <legend>Rights</legend>
          {FLAGS.map((f) => (
            <label key={f.flag} style={{ display: 'block' }}>
              <input type="checkbox" checked={flags[f.flag]} onChange={(e) => setFlags((x) => ({ ...x, [f.flag]: e.target.checked }))} /> {f.label}
            </label>
          ))}
        </fieldset>
        <Button type="submit" variant="primary" icon={<KeyRound size={16} aria-hidden="true" />} busy={create.isPending} disabled={!chosen.length}>
          Create key
        </Button>
        {create.isError && <ErrorMessage error={create.error} title="The key was not created" />}
      </form>
      {keys.isPending ? (
        <Loading inline label="Loading API keys…" />
      ) : keys.isError ? (
        <ErrorMessage error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <p className="muted">No API key yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Vendors</th>
                <th scope="col">Status</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.workspaces.map((w) => w.workspaceName).join(', ')}</td>
                  <td>{k.status}</td>
                  <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never'}</td>
                  <td>{formatDateTime(k.expiresAt)}</td>
                  <td>
                    {k.status === 'active' && (
                      <Button
                        size="sm"
                        variant="danger"
                        icon={<Trash2 size={14} aria-hidden="true" />}
                        aria-label={`Revoke the API key ${k.name}`}
                        onClick={() => window.confirm(`Revoke ${k.name}? Systems using it are refused at once.`) && revoke.mutate(k.id)}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoke.isError && <ErrorMessage error={revoke.error} />}
    </section>
  );
}
