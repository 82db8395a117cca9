import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { get, patch } from '../api/client';
import type { ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { formatDate } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';

type DocumentMetadata = ApiData<'listDocumentMetadata'>['documents'][number];
type DocType = NonNullable<DocumentMetadata['type']>;

/** Document types (src/domain/documentMetadata.ts), with the words the dashboard shows. */
const TYPES: Record<DocType, string> = {
  contract: 'Contract',
  dpa: 'DPA',
  sla: 'SLA',
  soc_report: 'SOC report',
  policy: 'Policy',
  certificate: 'Certificate',
  other: 'Other',
};

const metadataKey = (slug: string) => ['document-metadata', slug] as const;

/**
 * The type, effective date, expiry and version of each of a vendor's documents (docs/inventory.md,
 * "Document metadata"): proposed from the text, editable, filtered by type and expiry.
 */
export function DocumentDetails({ slug, canManage }: { slug: string; canManage: boolean }) {
  const [type, setType] = useState('');
  const [expiry, setExpiry] = useState('');
  const [editing, setEditing] = useState<DocumentMetadata | null>(null);
  const query = { type: type || undefined, expired: expiry === 'expired' ? true : undefined, expiringWithinDays: expiry === 'soon' ? 30 : undefined };
  const docs = useQuery({
    queryKey: [...metadataKey(slug), query],
    queryFn: () => get<ApiData<'listDocumentMetadata'>>('/document-metadata', { workspace: slug, query }),
    placeholderData: (prev) => prev,
  });
  return (
    <section className="card" aria-labelledby="doc-details-title">
      <h2 id="doc-details-title">Document details</h2>
      <p className="muted small">
        Type, dates and version are proposed from each document's text; what you set here is kept when the documents are synced again.
      </p>
      <div className="form-row">
        <div className="field">
          <label htmlFor="doc-type-filter">Type</label>
          <select id="doc-type-filter" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types</option>
            {Object.entries(TYPES).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="doc-expiry-filter">Expiry</label>
          <select id="doc-expiry-filter" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            <option value="">Any</option>
            <option value="expired">Expired</option>
            <option value="soon">Expiring within 30 days</option>
          </select>
        </div>
      </div>
      {docs.isPending ? (
        <Loading label="Loading the document details…" />
      ) : docs.isError ? (
        <ErrorMessage error={docs.error} onRetry={() => docs.refetch()} />
      ) : docs.data.documents.length === 0 ? (
        <p className="muted">No document matches.</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-cards" aria-label="Document details">
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Type</th>
                <th scope="col">Effective</th>
                <th scope="col">Expires</th>
                <th scope="col">Version</th>
                {canManage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {docs.data.documents.map((d) => (
                <tr key={d.documentId}>
                  <td>{d.title}</td>
                  <td data-label="Type">{d.type ? TYPES[d.type] : <span className="muted">—</span>}</td>
                  <td data-label="Effective">{d.effectiveDate ? formatDate(d.effectiveDate) : <span className="muted">—</span>}</td>
                  <td data-label="Expires">
                    {d.expiryDate ? formatDate(d.expiryDate) : <span className="muted">—</span>}
                    {d.expired && (
                      <>
                        {' '}
                        <span className="badge badge-error">Expired</span>
                      </>
                    )}
                  </td>
                  <td data-label="Version">{d.version ?? <span className="muted">—</span>}</td>
                  {canManage && (
                    <td>
                      <Button size="sm" onClick={() => setEditing(d)} aria-label={`Edit the details of ${d.title}`}>
                        Edit
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && <EditDialog slug={slug} doc={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function EditDialog({ slug, doc, onClose }: { slug: string; doc: DocumentMetadata; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [type, setType] = useState<string>(doc.type ?? '');
  const [effectiveDate, setEffective] = useState(doc.effectiveDate ?? '');
  const [expiryDate, setExpiry] = useState(doc.expiryDate ?? '');
  const [version, setVersion] = useState(doc.version ?? '');
  const save = useMutation({
    mutationFn: () =>
      patch(
        `/documents/${encodeURIComponent(doc.documentId)}/metadata`,
        { type: type || null, effectiveDate: effectiveDate || null, expiryDate: expiryDate || null, version: version.trim() || null },
        { workspace: slug },
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: metadataKey(slug) });
      toast.show('Document details saved', 'success');
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} title={`Details of ${doc.title}`}>
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="doc-edit-type">Type</label>
          <select id="doc-edit-type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">Not set</option>
            {Object.entries(TYPES).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field label="Effective date" type="date" value={effectiveDate} onChange={(e) => setEffective(e.target.value)} />
        <Field label="Expiry date" type="date" value={expiryDate} onChange={(e) => setExpiry(e.target.value)} />
        <Field label="Version" maxLength={40} value={version} onChange={(e) => setVersion(e.target.value)} />
        {save.isError && <ErrorMessage error={save.error} />}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
