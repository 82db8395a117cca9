import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { api, ApiError } from '../api/client';
import type { ApiData } from '../api/types';
import { COUNTRY_OPTIONS, CURRENCY_CODES, leiProblem } from '../profile/codes';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { auditKey, entityKey, preflightKey, ratesKey, useCodeLists, useEntity, type EntitySetting, type EntityView } from './api';
import styles from './Register.module.css';

type Values = Record<string, string>;
const SOURCE: Record<EntitySetting['source'], string> = {
  stored: 'Saved here',
  organization: "From the organization's profile",
  environment: 'From the service configuration',
  default: 'Built-in default',
  unset: 'Not set',
};
const toValues = (e: EntityView): Values => Object.fromEntries(e.settings.map((s) => [s.key, s.value === null ? '' : String(s.value)]));

/**
 * The entity that files the register (docs/register-of-information.md, "Entity settings"): an
 * org_admin edits them here; every change is audited. A field left empty falls back to the
 * organization's profile and the service's ROI_* configuration.
 */
export function EntitySettings() {
  const entity = useEntity();
  const codes = useCodeLists();
  const qc = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState<Values>({});
  /** The fields the user changed: each is stored, even when it equals the default in force. */
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const dirty = touched.size > 0;
  useEffect(() => {
    if (entity.data && !dirty) setValues(toValues(entity.data));
  }, [entity.data, dirty]);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<ApiData<'updateRegisterEntity'>>('PUT', '/register/entity', { body }),
    onSuccess: async ({ entity: e }) => {
      qc.setQueryData(entityKey, e);
      setTouched(new Set());
      setValues(toValues(e));
      await Promise.all([preflightKey, auditKey, ratesKey].map((queryKey) => qc.invalidateQueries({ queryKey })));
      toast.show('Entity settings saved', 'success');
    },
  });
  const errors = useMemo(() => {
    const out = new Map<string, string>();
    if (save.error instanceof ApiError) for (const d of save.error.details) out.set(d.split(':')[0]!.replace(/^body\./, ''), d.replace(/^[^:]+:\s*/, ''));
    return out;
  }, [save.error]);

  if (!entity.data) return null;
  const e = entity.data;
  const canEdit = e.canEdit;
  const setting = (k: string) => e.settings.find((s) => s.key === k)!;
  const set = (k: string, v: string) => {
    setValues((x) => ({ ...x, [k]: v }));
    setTouched((x) => new Set(x).add(k));
  };
  const lei = values.lei ? leiProblem(values.lei) : undefined;

  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const before = toValues(e);
    const body: Record<string, unknown> = {};
    for (const s of e.settings) {
      if (!touched.has(s.key)) continue;
      const v = (values[s.key] ?? '').trim();
      // Unchanged and already stored: nothing to do; a default typed in is stored (it no longer moves with the default).
      if (v === before[s.key] && (s.source === 'stored' || v === '')) continue;
      body[s.key] = v === '' ? null : s.key === 'totalAssets' ? Number(v) : v;
    }
    if (Object.keys(body).length) save.mutate(body);
    else setTouched(new Set());
  };

  const field = (key: string, label: string, control: (id: string, describedBy: string) => ReactNode, hint?: string) => {
    const s = setting(key);
    const id = `entity-${key}`;
    const err = errors.get(key) ?? (key === 'lei' && lei ? lei : undefined);
    return (
      <div className="field" data-setting={key}>
        <label htmlFor={id}>{label}</label>
        {control(id, `${id}-src${err ? ` ${id}-err` : ''}`)}
        <p id={`${id}-src`} className="field-hint">
          {hint ? `${hint} ` : ''}
          <span className={styles.source}>
            {s.source === 'stored' ? SOURCE.stored : `${SOURCE[s.source]}${s.source === 'environment' || s.source === 'default' ? ` (${s.variable})` : ''}`}
          </span>
        </p>
        {err && (
          <p id={`${id}-err`} className="field-error" role="alert">
            {err}
          </p>
        )}
        {key === 'lei' && values.lei && !lei && (
          <p className={styles.ok} role="status">
            <CheckCircle2 size={14} aria-hidden="true" /> Valid LEI check digits
          </p>
        )}
      </div>
    );
  };
  const select = (key: string, options: { value: string; label: string }[]) => (id: string, d: string) => (
    <select id={id} aria-describedby={d} value={values[key] ?? ''} onChange={(x) => set(key, x.target.value)}>
      <option value="">Not set</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
  const text =
    (key: string, extra: InputHTMLAttributes<HTMLInputElement> = {}) =>
    (id: string, d: string) => <input id={id} aria-describedby={d} value={values[key] ?? ''} onChange={(x) => set(key, x.target.value)} {...extra} />;

  return (
    <section className="card" aria-labelledby="entity-title" id="entity">
      <h2 id="entity-title">Your entity</h2>
      <p className="muted">
        The financial entity that files the register (templates B_01.01 and B_01.02).{' '}
        {canEdit ? 'Every change is recorded in the change history below.' : 'Only an org_admin can change these settings.'}
      </p>
      <form onSubmit={submit} noValidate aria-label="Entity settings">
        <fieldset disabled={!canEdit || save.isPending} className={styles.plain}>
          <div className={styles.grid}>
            {field('name', 'Name of the entity', text('name', { maxLength: 300 }))}
            {field(
              'lei',
              'LEI of the entity',
              (id, d) => (
                <input
                  id={id}
                  aria-describedby={d}
                  aria-invalid={lei ? true : undefined}
                  value={values.lei ?? ''}
                  maxLength={20}
                  autoComplete="off"
                  spellCheck={false}
                  style={{ fontFamily: 'var(--mono)' }}
                  onChange={(x) => set('lei', x.target.value.toUpperCase())}
                />
              ),
              'ISO 17442: 20 characters.',
            )}
            {field('country', 'Country of the entity', select('country', COUNTRY_OPTIONS))}
            {field('entityType', 'Type of entity', select('entityType', codes.data?.entityTypes ?? []))}
            {field('competentAuthority', 'Competent authority', text('competentAuthority', { maxLength: 200 }), 'e.g. BaFin.')}
            {field(
              'currency',
              'Reporting currency',
              select(
                'currency',
                CURRENCY_CODES.map((c) => ({ value: c, label: c })),
              ),
              'Every amount is reported in it.',
            )}
            {field(
              'totalAssets',
              'Value of total assets',
              text('totalAssets', { type: 'number', min: 0, step: 'any', inputMode: 'decimal' }),
              'In the reporting currency.',
            )}
            {field('referenceDate', 'Reference date of the register', text('referenceDate', { type: 'date' }), 'The date the register is filed as at.')}
          </div>
        </fieldset>
        {canEdit && (
          <div className={styles.formActions}>
            <Button type="submit" variant="primary" busy={save.isPending} disabled={!dirty || !!lei}>
              Save entity settings
            </Button>
            {dirty && (
              <Button
                onClick={() => {
                  setValues(toValues(e));
                  setTouched(new Set());
                  save.reset();
                }}
              >
                Discard changes
              </Button>
            )}
          </div>
        )}
        {save.isError && errors.size === 0 && <ErrorMessage error={save.error} title="The entity settings were not saved" />}
      </form>
    </section>
  );
}
