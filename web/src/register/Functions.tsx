import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { ApiError, del, patch, post } from '../api/client';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { auditKey, CRITICALITY, functionsKey, IMPACT, preflightKey, useCodeLists, useFunctions, type BusinessFunction } from './api';
import styles from './Register.module.css';

type Draft = {
  name: string;
  licensedActivity: string;
  criticality: string;
  reasons: string;
  lastAssessmentDate: string;
  rtoHours: string;
  rpoHours: string;
  impact: string;
};
const EMPTY: Draft = { name: '', licensedActivity: '', criticality: '', reasons: '', lastAssessmentDate: '', rtoHours: '', rpoHours: '', impact: '' };
const draftOf = (f: BusinessFunction): Draft => ({
  name: f.name,
  licensedActivity: f.licensedActivity,
  criticality: f.criticality,
  reasons: f.reasons ?? '',
  lastAssessmentDate: f.lastAssessmentDate,
  rtoHours: String(f.rtoHours),
  rpoHours: String(f.rpoHours),
  impact: f.impact,
});
const labelOf = (options: { value: string; label: string }[], v: string) => options.find((o) => o.value === v)?.label ?? v;

/**
 * The entity's business functions (B_06.01), edited here and linked to the contracts that
 * support them on each vendor's profile; their criticality, recovery objectives and the date of
 * their last criticality assessment go into the package.
 */
export function Functions({ canEdit, focus }: { canEdit: boolean; focus: string | null }) {
  const fns = useFunctions();
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const refresh = () => Promise.all([functionsKey, preflightKey, auditKey].map((queryKey) => qc.invalidateQueries({ queryKey })));
  const remove = useMutation({
    mutationFn: (id: string) => del(`/register/functions/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      setConfirm(null);
      await refresh();
      toast.show('Function deleted', 'success');
    },
  });
  // A to-do item opens a function (`<id>:<when>`, so that the same item opens it again).
  useEffect(() => {
    if (focus) setEditing(focus.split(':')[0]!);
  }, [focus]);
  const open = editing;
  const list = fns.data ?? [];

  return (
    <section className="card" aria-labelledby="functions-title" id="functions">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="functions-title">Business functions</h2>
          <p className="muted">
            Template B_06.01. Link each function to the contracts that support it on the vendor's profile; a critical or important function needs at least one.
          </p>
        </div>
        {canEdit && editing !== 'new' && (
          <Button icon={<Plus size={16} aria-hidden="true" />} onClick={() => setEditing('new')}>
            Add a function
          </Button>
        )}
      </div>
      {editing === 'new' && <FunctionForm onDone={() => setEditing(null)} refresh={refresh} />}
      {list.length === 0 && editing !== 'new' && <p className="muted">No function recorded yet.</p>}
      {list.length > 0 && (
        <ul className={styles.functions} aria-label="Business functions">
          {list.map((f) =>
            open === f.id && canEdit ? (
              <li key={f.id}>
                <FunctionForm current={f} onDone={() => setEditing(null)} refresh={refresh} />
              </li>
            ) : (
              <li key={f.id} className={styles.function} data-function={f.code} aria-label={`${f.code} ${f.name}`}>
                <div className={styles.functionHead}>
                  <h3>
                    <span className={styles.code}>{f.code}</span> {f.name}
                  </h3>
                  <span className={`badge ${f.criticality === 'yes' ? 'badge-warn' : 'badge-muted'}`}>{labelOf(CRITICALITY, f.criticality)}</span>
                </div>
                <dl className={styles.facts}>
                  <div>
                    <dt>Recovery time</dt>
                    <dd>{f.rtoHours} h</dd>
                  </div>
                  <div>
                    <dt>Recovery point</dt>
                    <dd>{f.rpoHours} h</dd>
                  </div>
                  <div>
                    <dt>Last assessed</dt>
                    <dd>{f.lastAssessmentDate}</dd>
                  </div>
                  <div>
                    <dt>Impact if discontinued</dt>
                    <dd>{labelOf(IMPACT, f.impact)}</dd>
                  </div>
                </dl>
                <p className="small">
                  {f.contracts.length ? (
                    <>
                      Supported by{' '}
                      {f.contracts.map((c, i) => (
                        <span key={`${c.workspaceId}-${c.reference}`}>
                          {i > 0 && ', '}
                          {c.reference} ({c.vendor})
                        </span>
                      ))}
                    </>
                  ) : (
                    <span className="muted">No contract supports it yet: link it on a vendor's contract.</span>
                  )}
                </p>
                {canEdit && (
                  <div className={styles.rowActions}>
                    <Button size="sm" icon={<Pencil size={14} aria-hidden="true" />} onClick={() => setEditing(f.id)} aria-label={`Edit function ${f.code}`}>
                      Edit
                    </Button>
                    {confirm === f.id ? (
                      <>
                        <Button size="sm" variant="danger" busy={remove.isPending} onClick={() => remove.mutate(f.id)}>
                          Delete {f.code}
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setConfirm(null)}>
                          Keep it
                        </Button>
                      </>
                    ) : (
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={<Trash2 size={14} aria-hidden="true" />}
                        onClick={() => setConfirm(f.id)}
                        aria-label={`Delete function ${f.code}`}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                )}
                {remove.isError && remove.variables === f.id && <ErrorMessage error={remove.error} title="The function was not deleted" />}
              </li>
            ),
          )}
        </ul>
      )}
      {list.length > 0 && (
        <p className="small muted">
          Contracts are linked to functions on each <Link to="/vendors">vendor's profile</Link>.
        </p>
      )}
    </section>
  );
}

function FunctionForm({ current, onDone, refresh }: { current?: BusinessFunction; onDone(): void; refresh(): Promise<unknown> }) {
  const codes = useCodeLists();
  const toast = useToast();
  const [d, setD] = useState<Draft>(current ? draftOf(current) : { ...EMPTY, licensedActivity: codes.data?.defaultLicensedActivity ?? '' });
  const set = (k: keyof Draft, v: string) => setD((x) => ({ ...x, [k]: v }));
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: d.name.trim(),
        licensedActivity: d.licensedActivity,
        criticality: d.criticality,
        reasons: d.reasons.trim() || null,
        lastAssessmentDate: d.lastAssessmentDate,
        rtoHours: d.rtoHours === '' ? undefined : Number(d.rtoHours),
        rpoHours: d.rpoHours === '' ? undefined : Number(d.rpoHours),
        impact: d.impact,
      };
      return current ? patch(`/register/functions/${encodeURIComponent(current.id)}`, body) : post('/register/functions', body);
    },
    onSuccess: async () => {
      await refresh();
      toast.show(current ? `Function ${current.code} saved` : 'Function added', 'success');
      onDone();
    },
  });
  const missing = (['name', 'licensedActivity', 'criticality', 'lastAssessmentDate', 'rtoHours', 'rpoHours', 'impact'] as (keyof Draft)[]).filter(
    (k) => !d[k].trim(),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const prefix = current ? `fn-${current.id}` : 'fn-new';
  const errorFor = (k: string) => (save.error instanceof ApiError ? save.error.details.find((x) => x.includes(k)) : undefined);
  const input = (k: keyof Draft, label: string, attrs: InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => (
    <div className="field">
      <label htmlFor={`${prefix}-${k}`}>{label}</label>
      <input id={`${prefix}-${k}`} value={d[k]} onChange={(e) => set(k, e.target.value)} aria-invalid={errorFor(k) ? true : undefined} {...attrs} />
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
  const select = (k: keyof Draft, label: string, options: { value: string; label: string }[]) => (
    <div className="field">
      <label htmlFor={`${prefix}-${k}`}>{label}</label>
      <select id={`${prefix}-${k}`} value={d[k]} onChange={(e) => set(k, e.target.value)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form className={styles.inlineForm} onSubmit={submit} noValidate aria-label={current ? `Edit function ${current.code}` : 'New business function'}>
      <h3>{current ? `Edit ${current.code}` : 'New business function'}</h3>
      <div className={styles.grid}>
        {input('name', 'Function name', { maxLength: 300 })}
        {select(
          'licensedActivity',
          'Licensed activity',
          (codes.data?.licensedActivities ?? []).map((o) => ({ value: o.value, label: o.label })),
        )}
        {select('criticality', 'Criticality or importance', CRITICALITY)}
        {input('lastAssessmentDate', 'Date of the last criticality assessment', { type: 'date' })}
        {input('rtoHours', 'Recovery time objective (hours)', { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
        {input('rpoHours', 'Recovery point objective (hours)', { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
        {select('impact', 'Impact of discontinuing the function', IMPACT)}
        {d.criticality === 'yes' && input('reasons', 'Why it is critical or important', { maxLength: 300 }, 'Up to 300 characters.')}
      </div>
      {save.isError && <ErrorMessage error={save.error} title="The function was not saved" />}
      <div className={styles.formActions}>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={missing.length > 0}>
          {current ? 'Save function' : 'Add the function'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        {missing.length > 0 && <p className="small muted">Every field but the reasons is needed for the register.</p>}
      </div>
    </form>
  );
}
