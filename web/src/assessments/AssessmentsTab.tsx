import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClipboardCheck, Plus, Upload } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useOutletContext } from 'react-router';
import { get } from '../api/client';
import type { ApiData } from '../api/types';
import { uploadWithProgress } from '../api/upload';
import { acceptOf, FORMATS_IN_WORDS, uploadProblem, useUploadLimits } from '../api/uploadCheck';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { Field } from '../ui/Field';
import { formatBytes, formatDateTime } from '../ui/format';
import { ProgressBar } from '../ui/ProgressBar';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { assessmentsKey, useAssessments, type Assessment } from './api';
import { RiskBadge, StatusBadge } from './badges';
import styles from './Assessments.module.css';

/** A vendor's DORA gap assessments: the list and a new one from uploads or the vendor's documents. */
export default function AssessmentsTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const list = useAssessments(vendor.workspaceId);
  const [creating, setCreating] = useState(false);
  const canRun = vendor.permissions.canManageSync;
  return (
    <div>
      <div className="page-header" style={{ marginBottom: 12 }}>
        <div>
          <h2>Assessments</h2>
          <p className="page-sub">DORA gap analyses of this vendor's documents: each obligation covered, partial or missing, with the quoted evidence.</p>
        </div>
        {canRun && (
          <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            New assessment
          </Button>
        )}
      </div>
      {list.isPending ? (
        <Loading label="Loading assessments…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} title="The assessments could not be loaded" onRetry={() => list.refetch()} />
      ) : list.data.assessments.length === 0 ? (
        <EmptyState
          icon={<ClipboardCheck size={36} />}
          title="No assessment yet"
          action={
            canRun && (
              <Button variant="primary" onClick={() => setCreating(true)}>
                Run the first assessment
              </Button>
            )
          }
        >
          <p>An assessment reads the vendor's contracts and policies and checks them against 30 DORA obligations (Articles 28-30 and the ICT risk articles).</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Assessments of {vendor.workspaceName}</caption>
            <thead>
              <tr>
                <th scope="col">Assessment</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Score
                </th>
                <th scope="col">Risk rating</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {list.data.assessments.map((a: Assessment) => (
                <tr key={a.id}>
                  <td>
                    <Link className="strong-link" to={a.id}>
                      {a.name}
                    </Link>
                    {a.summary && (
                      <div className="muted small">
                        {a.summary.covered} covered · {a.summary.partial} partial · {a.summary.missing} missing
                      </div>
                    )}
                  </td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td className="num">{a.score ?? '—'}</td>
                  <td>{a.riskRating ? <RiskBadge rating={a.riskRating} /> : <span className="muted">—</span>}</td>
                  <td>{formatDateTime(a.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canRun && <NewAssessmentDialog open={creating} onClose={() => setCreating(false)} ws={vendor.workspaceId} vendorName={vendor.workspaceName} />}
    </div>
  );
}

function NewAssessmentDialog({ open, onClose, ws, vendorName }: { open: boolean; onClose: () => void; ws: string; vendorName: string }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [progress, setProgress] = useState(0);
  const limits = useUploadLimits();
  const [refused, setRefused] = useState<string[]>([]);
  const sources = useQuery({
    queryKey: ['data-sources', ws, 'for-assessment'],
    enabled: open,
    queryFn: () => get<ApiData<'listDataSources'>>('/data-sources', { workspace: ws, query: { limit: 100, status: 'ready', sort: '-createdAt' } }),
  });
  const existing = (sources.data?.dataSources ?? []).flatMap((d) => d.files.map((f) => ({ ...f, source: d.name })));
  const create = useMutation({
    mutationFn: () => {
      const form = new FormData();
      if (name.trim()) form.append('name', name.trim());
      for (const id of chosen) form.append('sourceFileId', id);
      for (const f of files) form.append('files', f, f.name);
      return uploadWithProgress<{ assessment: Assessment }>({ path: '/assessments', workspace: ws, form, onProgress: setProgress });
    },
    onSuccess: async ({ assessment }) => {
      await qc.invalidateQueries({ queryKey: assessmentsKey(ws) });
      toast.show('Assessment started', 'success');
      setFiles([]);
      setChosen(new Set());
      setName('');
      onClose();
      navigate(assessment.id);
    },
  });
  const count = files.length + chosen.size;
  const toggle = (id: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="New assessment"
      wide
    >
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label="Name"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          placeholder={`DORA assessment of ${vendorName}`}
          hint="Optional."
        />
        <fieldset className={styles.pick}>
          <legend>The vendor's documents</legend>
          {sources.isPending ? (
            <Loading inline label="Loading documents…" />
          ) : sources.isError ? (
            <ErrorMessage error={sources.error} />
          ) : existing.length === 0 ? (
            <p className="muted small">No document uploaded to this vendor yet: upload files below, or on the Documents tab.</p>
          ) : (
            <ul className={styles.fileList}>
              {existing.map((f) => (
                <li key={f.id}>
                  <label>
                    <input type="checkbox" checked={chosen.has(f.id)} onChange={() => toggle(f.id)} /> {f.filename}{' '}
                    <span className="muted small">
                      {formatBytes(f.sizeBytes)} · {f.source}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {existing.length > 1 && (
            <Button size="sm" variant="ghost" onClick={() => setChosen(chosen.size === existing.length ? new Set() : new Set(existing.map((f) => f.id)))}>
              {chosen.size === existing.length ? 'Clear the selection' : 'Select all'}
            </Button>
          )}
        </fieldset>
        <div className="field">
          <label htmlFor="assessment-files">Or upload files</label>
          <input
            id="assessment-files"
            type="file"
            multiple
            accept={acceptOf(limits.data)}
            onChange={async (e) => {
              // Size and type are checked before anything is sent; a refused file is named and left out.
              const picked = [...(e.target.files ?? [])];
              const problems = await Promise.all(picked.map((f) => uploadProblem(f, limits.data)));
              setFiles(picked.filter((_, i) => !problems[i]));
              setRefused(problems.filter((p): p is string => !!p));
            }}
          />
          <p className="field-hint">
            {FORMATS_IN_WORDS}
            {limits.data ? `, up to ${formatBytes(limits.data.maxFileBytes)} each and ${limits.data.maxFiles} files in all.` : '.'}
          </p>
          {refused.map((r) => (
            <p key={r} className="field-error" role="alert">
              {r}
            </p>
          ))}
        </div>
        {create.isPending && <ProgressBar value={progress * 100} label="Uploading the documents" />}
        {create.isError && <ErrorMessage error={create.error} title="The assessment was not started" />}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" icon={<Upload size={16} aria-hidden="true" />} busy={create.isPending} disabled={count === 0}>
            {count ? `Assess ${count} document${count === 1 ? '' : 's'}` : 'Choose documents'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
