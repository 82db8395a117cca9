import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileText, RefreshCw, Trash2, Upload, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useNavigate, useOutletContext, useParams, useSearchParams } from 'react-router';
import { del, messageOf, post } from '../api/client';
import { openApiFile } from '../api/files';
import type { DataSource } from '../api/types';
import { uploadWithProgress } from '../api/upload';
import { acceptOf, FORMATS_IN_WORDS, uploadProblem, useUploadLimits, type UploadLimits } from '../api/uploadCheck';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { formatBytes, formatDateTime, plural, timeAgo } from '../ui/format';
import { ProgressBar } from '../ui/ProgressBar';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { useDocumentViewer } from '../viewer/DocumentViewer';
import { dataSourcesKey, useDataSources, useLiveDataSources } from './dataSources';
import { DocumentDetails } from './DocumentDetails';
import { SourceStatus } from './SourceStatus';
import type { VendorOutletContext } from './VendorPage';
import styles from './DocumentsTab.module.css';

const PARALLEL_UPLOADS = 2;

interface UploadItem {
  key: number;
  file: File;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'error';
  error?: string;
}

/** A vendor's documents: upload (drag and drop, several at once, progress per file), live status, open, re-sync, delete. */
export default function DocumentsTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  useTitle(`${vendor.workspaceName} · Documents`);
  const slug = vendor.workspaceId;
  const canManage = vendor.permissions.canManageSync;
  const [page, setPage] = useState(1);
  const sources = useDataSources(slug, page);
  useLiveDataSources(vendor.id, slug);
  const limits = useUploadLimits();
  const uploads = useUploads(slug, limits.data);
  useOpenFromLink(slug);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const [deleting, setDeleting] = useState<DataSource | null>(null);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) void uploads.add([...e.dataTransfer.files]);
  };

  return (
    <div className={styles.wrap}>
      {canManage && (
        <section
          className={`${styles.drop}${dragging ? ` ${styles.dragging}` : ''}`}
          aria-labelledby="upload-h"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="dropzone"
        >
          <Upload size={28} aria-hidden="true" className={styles.dropIcon} />
          <div>
            <h2 id="upload-h" className={styles.dropTitle}>
              Add documents
            </h2>
            <p className={styles.dropText}>
              Drop contracts, policies, SLAs or reports here, or choose files. {FORMATS_IN_WORDS}
              {limits.data ? `, up to ${formatBytes(limits.data.maxFileBytes)} each.` : '.'}
            </p>
          </div>
          <Button variant="primary" onClick={() => input.current?.click()}>
            Choose files
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            accept={acceptOf(limits.data)}
            className="visually-hidden"
            aria-label="Files to upload"
            tabIndex={-1}
            onChange={(e) => {
              if (e.target.files?.length) void uploads.add([...e.target.files]);
              e.target.value = '';
            }}
          />
        </section>
      )}

      {uploads.items.length > 0 && (
        <section aria-label="Uploads" className={`card ${styles.uploads}`}>
          <ul className={styles.uploadList}>
            {uploads.items.map((u) => (
              <li key={u.key} className={styles.uploadItem}>
                <FileText size={16} aria-hidden="true" />
                <span className={styles.uploadName}>{u.file.name}</span>
                <span className="muted small">{formatBytes(u.file.size)}</span>
                <div className={styles.uploadBar}>
                  {u.state === 'error' ? (
                    <span className={styles.uploadError} role="alert">
                      {u.error}
                    </span>
                  ) : (
                    <ProgressBar value={u.progress * 100} label={`Upload of ${u.file.name}`} tone={u.state === 'done' ? 'done' : undefined} />
                  )}
                </div>
                <span className="small">
                  {u.state === 'waiting' ? 'Waiting' : u.state === 'uploading' ? 'Uploading' : u.state === 'done' ? 'Uploaded' : 'Not uploaded'}
                </span>
                {(u.state === 'error' || u.state === 'done') && (
                  <button type="button" className="icon-btn" aria-label={`Dismiss ${u.file.name}`} onClick={() => uploads.dismiss(u.key)}>
                    <X size={16} aria-hidden="true" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {sources.isPending ? (
        <Loading label="Loading documents…" />
      ) : sources.isError ? (
        <ErrorMessage error={sources.error} title="The documents could not be loaded" onRetry={() => sources.refetch()} />
      ) : sources.data.dataSources.length === 0 ? (
        <EmptyState icon={<FileText size={36} />} title="No documents yet">
          <p>
            {canManage
              ? 'Upload the vendor’s contract, DPA, security policy or SLA to ask questions about them.'
              : 'Nobody has uploaded documents for this vendor yet.'}
          </p>
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table table-cards" aria-label="Documents">
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Pages
                  </th>
                  <th scope="col" className="num">
                    Passages
                  </th>
                  <th scope="col">Indexed</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sources.data.dataSources.map((d) => (
                  <SourceRow key={d.id} source={d} slug={slug} canManage={canManage} onDelete={() => setDeleting(d)} />
                ))}
              </tbody>
            </table>
          </div>
          {sources.data.pagination.pages > 1 && (
            <nav className={styles.pager} aria-label="Pages of documents">
              <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <span className="small">
                Page {page} of {sources.data.pagination.pages} · {plural(sources.data.pagination.total, 'source')}
              </span>
              <Button size="sm" disabled={page >= sources.data.pagination.pages} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </nav>
          )}
        </>
      )}
      {sources.data && sources.data.dataSources.length > 0 && <DocumentDetails slug={slug} canManage={canManage} />}
      <DeleteDialog source={deleting} slug={slug} onClose={() => setDeleting(null)} />
    </div>
  );
}

function SourceRow({ source: d, slug, canManage, onDelete }: { source: DataSource; slug: string; canManage: boolean; onDelete: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const resync = useMutation({
    mutationFn: () => post(`/data-sources/${d.id}/sync`, undefined, { workspace: slug }),
    onSuccess: () => qc.invalidateQueries({ queryKey: dataSourcesKey(slug) }),
    onError: (err) => toast.show(messageOf(err), 'error'),
  });
  const open = (fileUrl: string, name: string) => openApiFile(fileUrl, slug, name).catch((err) => toast.show(messageOf(err), 'error'));
  return (
    <tr data-source-id={d.id}>
      <td>
        <div className={styles.docName}>{d.name}</div>
        <ul className={styles.files}>
          {d.files.map((f) => (
            <li key={f.id}>
              <button type="button" className="link-button small" onClick={() => open(f.url, f.filename)} aria-label={`Open the original file ${f.filename}`}>
                {f.filename}
              </button>{' '}
              <span className="muted small">{formatBytes(f.sizeBytes)}</span>
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Status">
        <SourceStatus status={d.status} />
        {d.error && <p className={d.status === 'failed' ? styles.error : styles.retry}>{d.error.message}</p>}
      </td>
      <td className="num" data-label="Pages">
        {d.status === 'ready' ? d.pageCount : '—'}
      </td>
      <td className="num" data-label="Passages">
        {d.status === 'ready' ? d.chunkCount : '—'}
      </td>
      <td data-label="Indexed">
        {d.lastSyncedAt ? (
          <time dateTime={d.lastSyncedAt} title={formatDateTime(d.lastSyncedAt)}>
            {timeAgo(d.lastSyncedAt)}
          </time>
        ) : (
          <span className="muted">not yet</span>
        )}
      </td>
      <td className={styles.actions}>
        {canManage && (
          <>
            <Button
              size="sm"
              variant="ghost"
              icon={<RefreshCw size={14} aria-hidden="true" />}
              busy={resync.isPending}
              disabled={d.status === 'pending' || d.status === 'processing'}
              onClick={() => resync.mutate()}
              aria-label={`Re-index ${d.name}`}
            >
              {d.status === 'failed' ? 'Retry' : 'Re-index'}
            </Button>
            <Button size="sm" variant="ghost" icon={<Trash2 size={14} aria-hidden="true" />} onClick={onDelete} aria-label={`Delete ${d.name}`}>
              Delete
            </Button>
          </>
        )}
      </td>
    </tr>
  );
}

function DeleteDialog({ source, slug, onClose }: { source: DataSource | null; slug: string; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (id: string) => del(`/data-sources/${id}`, { workspace: slug }),
    onSuccess: async () => {
      toast.show(`${source?.name ?? 'Document'} deleted`, 'success');
      await qc.invalidateQueries({ queryKey: dataSourcesKey(slug) });
      onClose();
    },
  });
  return (
    <Dialog
      open={!!source}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      title="Delete this document?"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={remove.isPending} onClick={() => source && remove.mutate(source.id)}>
            Delete
          </Button>
        </>
      }
    >
      <p>
        <strong>{source?.name}</strong> and its indexed passages will no longer be used in answers. Earlier answers keep their citations.
      </p>
      {remove.isError && <ErrorMessage error={remove.error} />}
    </Dialog>
  );
}

/**
 * `/vendors/:slug/documents/:documentId?chunk=…` (the links of the conversation exports): the
 * document opens in the viewer at that passage; closing it goes back to the list.
 */
function useOpenFromLink(slug: string) {
  const { documentId } = useParams();
  const [params] = useSearchParams();
  const chunk = params.get('chunk');
  const viewer = useDocumentViewer();
  const navigate = useNavigate();
  useEffect(() => {
    if (!documentId) return;
    viewer.open({ ws: slug, source: { kind: 'document', documentId, chunkId: chunk }, title: '' }, () =>
      navigate(`/vendors/${encodeURIComponent(slug)}/documents`, { replace: true }),
    );
  }, [documentId, chunk, slug, viewer, navigate]);
}

/**
 * The upload queue: one request per file (each becomes its own data source), two at a time. A
 * file the service would refuse for its size or type is refused here, before a byte is sent.
 */
function useUploads(slug: string, limits: UploadLimits | undefined) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const next = useRef(1);
  const running = useRef(0);
  const queue = useRef<UploadItem[]>([]);
  const qc = useQueryClient();
  const update = useCallback((key: number, patch: Partial<UploadItem>) => setItems((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u))), []);

  const pump = useCallback(() => {
    while (running.current < PARALLEL_UPLOADS && queue.current.length) {
      const item = queue.current.shift()!;
      running.current += 1;
      update(item.key, { state: 'uploading' });
      const form = new FormData();
      form.append('files', item.file, item.file.name);
      uploadWithProgress<{ dataSource: DataSource }>({ path: '/data-sources', workspace: slug, form, onProgress: (p) => update(item.key, { progress: p }) })
        .then(() => {
          update(item.key, { state: 'done', progress: 1 });
          void qc.invalidateQueries({ queryKey: dataSourcesKey(slug) });
          setTimeout(() => setItems((list) => list.filter((u) => u.key !== item.key)), 4000);
        })
        .catch((err) => update(item.key, { state: 'error', error: messageOf(err) }))
        .finally(() => {
          running.current -= 1;
          pump();
        });
    }
  }, [slug, update, qc]);

  return {
    items,
    async add(files: File[]) {
      const checked = await Promise.all(files.map(async (file) => ({ file, problem: await uploadProblem(file, limits) })));
      const added: UploadItem[] = checked.map(({ file, problem }) =>
        problem ? { key: next.current++, file, progress: 0, state: 'error', error: problem } : { key: next.current++, file, progress: 0, state: 'waiting' },
      );
      setItems((list) => [...list, ...added]);
      queue.current.push(...added.filter((u) => u.state === 'waiting'));
      pump();
    },
    dismiss: (key: number) => setItems((list) => list.filter((u) => u.key !== key)),
  };
}
