import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Building2, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { post } from '../api/client';
import type { Workspace } from '../api/types';
import { useOrganization } from '../auth/session';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { Field } from '../ui/Field';
import { formatDateTime, timeAgo } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { useVendors, vendorsKey } from './api';
import { SyncStatusBadge } from './SyncStatusBadge';

/** The vendor portfolio: every workspace with its sync status, documents and last sync. */
export default function VendorsPage() {
  useTitle('Vendors');
  const [page, setPage] = useState(1);
  const vendors = useVendors(page);
  const org = useOrganization().data;
  const [creating, setCreating] = useState(false);
  const canCreate = org?.myRole !== 'viewer';
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Vendors</h1>
          <p className="page-sub">ICT third-party providers of {org?.name ?? 'your organization'}: their documents, questions and sync state.</p>
        </div>
        {canCreate && (
          <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            New vendor
          </Button>
        )}
      </header>
      {vendors.isPending ? (
        <Loading label="Loading vendors…" />
      ) : vendors.isError ? (
        <ErrorMessage error={vendors.error} title="The vendors could not be loaded" onRetry={() => vendors.refetch()} />
      ) : vendors.data.workspaces.length === 0 ? (
        <EmptyState
          icon={<Building2 size={36} />}
          title="No vendors yet"
          action={
            canCreate && (
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create the first vendor
              </Button>
            )
          }
        >
          <p>A vendor workspace holds one ICT provider's contracts, policies and reports. Upload them, then ask questions with cited answers.</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table table-cards">
            <caption className="visually-hidden">Vendors</caption>
            <thead>
              <tr>
                <th scope="col">Vendor</th>
                <th scope="col">Sync status</th>
                <th scope="col" className="num">
                  Documents
                </th>
                <th scope="col">Last sync</th>
                <th scope="col">Your role</th>
                <th scope="col" className="num">
                  People
                </th>
              </tr>
            </thead>
            <tbody>
              {vendors.data.workspaces.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/vendors/${encodeURIComponent(w.workspaceId)}`} className="strong-link">
                      {w.workspaceName}
                    </Link>
                    <div className="muted small">{w.workspaceId}</div>
                  </td>
                  <td data-label="Sync status">
                    <SyncStatusBadge status={w.syncStatus} />
                  </td>
                  <td className="num" data-label="Documents">
                    {w.documentCount ?? '—'}
                  </td>
                  <td data-label="Last sync">
                    {w.lastSyncedAt ? (
                      <time dateTime={w.lastSyncedAt} title={formatDateTime(w.lastSyncedAt)}>
                        {timeAgo(w.lastSyncedAt)}
                      </time>
                    ) : (
                      <span className="muted">never</span>
                    )}
                  </td>
                  <td className="cap" data-label="Your role">
                    {w.myRole}
                  </td>
                  <td className="num" data-label="People">
                    {w.memberCount}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {vendors.data && vendors.data.pagination.pages > 1 && (
        <nav className="pager" aria-label="Pages of vendors">
          <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="small">
            Page {page} of {vendors.data.pagination.pages} · {vendors.data.pagination.total} vendors
          </span>
          <Button size="sm" disabled={page >= vendors.data.pagination.pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
      <CreateVendorDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function CreateVendorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => post<{ workspace: Workspace }>('/workspaces', { workspaceName: name.trim() }),
    onSuccess: async ({ workspace }) => {
      await qc.invalidateQueries({ queryKey: vendorsKey });
      toast.show(`Vendor ${workspace.workspaceName} created`, 'success');
      setName('');
      onClose();
      navigate(`/vendors/${encodeURIComponent(workspace.workspaceId)}`);
    },
  });
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="New vendor"
    >
      <form
        className="form"
        id="create-vendor"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label="Vendor name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. GitHub"
          autoFocus
          hint="The provider's usual name; the legal details go in its profile."
        />
        {create.isError && <ErrorMessage error={create.error} />}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
            Create vendor
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
