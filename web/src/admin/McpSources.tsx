import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlugZap, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { del, get, patch, post } from '../api/client';
import type { ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { useStreamEvent } from '../notifications/stream';

type McpSource = ApiData<'listMcpSources'>['mcpSources'][number];

const key = (ws: string) => ['mcp-sources', ws] as const;

/**
 * MCP servers as document sources of a vendor: add (after a connection test), sync now, stats, enable, remove.
 * `workspaceId` is the opaque id carried by the stream's `mcp-source:status` events (a sync queued,
 * started or ended, a source changed or deleted, docs/notifications.md): each re-reads the list, so the
 * outcome of a sync shows without a reload; so does a reconnect of the stream, since events are not replayed.
 */
export function McpSources({ ws, workspaceId, canManage }: { ws: string; workspaceId: string; canManage: boolean }) {
  const list = useQuery({
    queryKey: key(ws),
    queryFn: () => get<ApiData<'listMcpSources'>>('/mcp-sources', { workspace: ws, query: { limit: 100 } }),
  });
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: key(ws) });
  useStreamEvent('mcp-source:status', (e) => {
    if (e.workspaceId === workspaceId) refresh();
  });
  useStreamEvent('stream:reconnecting', refresh);
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const act = useMutation({
    mutationFn: async (a: { kind: 'sync' | 'toggle' | 'delete'; s: McpSource }) => {
      if (a.kind === 'sync') return post(`/mcp-sources/${a.s.id}/sync`, undefined, { workspace: ws });
      if (a.kind === 'toggle') return patch(`/mcp-sources/${a.s.id}`, { enabled: !a.s.enabled }, { workspace: ws });
      return del(`/mcp-sources/${a.s.id}`, { workspace: ws });
    },
    onSuccess: async (_d, a) => {
      await qc.invalidateQueries({ queryKey: key(ws) });
      toast.show(
        { sync: `Sync of ${a.s.name} started`, toggle: `${a.s.name} ${a.s.enabled ? 'disabled' : 'enabled'}`, delete: `${a.s.name} removed` }[a.kind],
        'success',
      );
    },
  });
  return (
    <section className="card" aria-labelledby="mcp-title">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 12 }}>
        <div>
          <h3 id="mcp-title">MCP sources</h3>
          <p className="muted small">Servers speaking the Model Context Protocol whose resources are indexed as this vendor's documents.</p>
        </div>
        {canManage && (
          <Button size="sm" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setAdding(true)}>
            Add an MCP source
          </Button>
        )}
      </div>
      {list.isPending ? (
        <Loading inline label="Loading MCP sources…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.mcpSources.length === 0 ? (
        <p className="muted">No MCP source.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">MCP sources</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Last sync</th>
                <th scope="col" className="num">
                  Documents
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.mcpSources.map((s) => (
                <tr key={s.id}>
                  <td>
                    <strong>{s.name}</strong> {!s.enabled && <span className="badge badge-muted">Disabled</span>}
                    <div className="muted small">{s.url ?? s.command}</div>
                  </td>
                  <td>
                    <span
                      className={`badge ${s.syncStatus === 'failed' ? 'badge-error' : s.syncStatus === 'succeeded' ? 'badge-ok' : s.syncStatus === 'partial' ? 'badge-warn' : 'badge-busy'}`}
                    >
                      {s.syncStatus}
                    </span>
                    {s.lastSync && (
                      <div className="muted small">
                        {formatDateTime(s.lastSync.finishedAt)} · {s.lastSync.resources.added} added, {s.lastSync.resources.updated} updated,{' '}
                        {s.lastSync.resources.failed} failed
                        {s.lastSync.error && <> · {s.lastSync.error}</>}
                      </div>
                    )}
                  </td>
                  <td className="num">
                    <div>{s.documentCount}</div>
                    <div className="muted small">{s.chunkCount} passages</div>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    {canManage && (
                      <>
                        <Button
                          size="sm"
                          icon={<RefreshCw size={14} aria-hidden="true" />}
                          disabled={!s.enabled}
                          onClick={() => act.mutate({ kind: 'sync', s })}
                          aria-label={`Sync now: ${s.name}`}
                        >
                          Sync now
                        </Button>{' '}
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`${s.enabled ? 'Disable' : 'Enable'}: ${s.name}`}
                          onClick={() => act.mutate({ kind: 'toggle', s })}
                        >
                          {s.enabled ? 'Disable' : 'Enable'}
                        </Button>{' '}
                        <Button
                          size="sm"
                          variant="danger"
                          icon={<Trash2 size={14} aria-hidden="true" />}
                          aria-label={`Remove: ${s.name}`}
                          onClick={() => window.confirm(`Remove ${s.name} and its ${s.documentCount} documents?`) && act.mutate({ kind: 'delete', s })}
                        >
                          Remove
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {act.isError && <ErrorMessage error={act.error} />}
      {canManage && <AddMcpDialog ws={ws} open={adding} onClose={() => setAdding(false)} />}
    </section>
  );
}

function AddMcpDialog({ ws, open, onClose }: { ws: string; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [header, setHeader] = useState('');
  const [value, setValue] = useState('');
  // The result of a connection test speaks of the settings it tried: an edit of them clears it.
  const edited = (set: (v: string) => void, v: string) => {
    set(v);
    if (test.data || test.isError) test.reset();
  };
  const settings = () => ({ transport: 'http' as const, url: url.trim(), ...(header.trim() && value ? { headers: { [header.trim()]: value } } : {}) });
  const test = useMutation({
    mutationFn: async () => (await post<ApiData<'testMcpConnection'>>('/mcp-sources/test-connection', settings(), { workspace: ws })).connection,
  });
  const add = useMutation({
    mutationFn: () => post('/mcp-sources', { name: name.trim(), ...settings() }, { workspace: ws }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: key(ws) });
      toast.show(`${name} added; the first sync is under way`, 'success');
      setName('');
      setUrl('');
      setHeader('');
      setValue('');
      test.reset();
      onClose();
    },
  });
  return (
    <Dialog open={open} onClose={onClose} title="Add an MCP source">
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <Field label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <Field
          label="Server URL (Streamable HTTP)"
          type="url"
          required
          value={url}
          onChange={(e) => edited(setUrl, e.target.value)}
          placeholder="https://mcp.example.com/mcp"
        />
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
          <Field label="Header name (optional)" value={header} onChange={(e) => edited(setHeader, e.target.value)} placeholder="Authorization" />
          <Field
            label="Header value"
            type="password"
            value={value}
            onChange={(e) => edited(setValue, e.target.value)}
            hint="Stored encrypted, never shown again."
          />
        </div>
        {test.data && (
          <p role="status" className={`alert ${test.data.ok ? 'alert-success' : 'alert-error'}`}>
            {test.data.ok
              ? `Connected in ${test.data.latencyMs} ms to ${test.data.server?.name ?? 'the server'} ${test.data.server?.version ?? ''}: ${test.data.resources?.count ?? 0} resources, ${test.data.tools?.count ?? 0} tools.`
              : `Connection failed: ${test.data.error?.message ?? 'unknown error'}`}
          </p>
        )}
        {test.isError && <ErrorMessage error={test.error} />}
        {add.isError && <ErrorMessage error={add.error} title="The source was not added" />}
        <div className="form-actions">
          <Button icon={<PlugZap size={16} aria-hidden="true" />} busy={test.isPending} disabled={!url.trim()} onClick={() => test.mutate()}>
            Test the connection
          </Button>
          <Button type="submit" variant="primary" busy={add.isPending} disabled={!name.trim() || !url.trim()}>
            Add and sync
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
