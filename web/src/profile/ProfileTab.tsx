import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation, useOutletContext } from 'react-router';
import { WouldAddPanel } from '../concentration/WouldAddPanel';
import { ApiError, patch } from '../api/client';
import type { ApiData, Workspace } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { vendorKey, vendorsKey } from '../vendors/api';
import type { VendorOutletContext } from '../vendors/VendorPage';
import {
  CERTIFICATION_STATUSES,
  COUNTRY_OPTIONS,
  CRITICALITY_TIERS,
  ICT_OPTIONS,
  IDENTIFIER_TYPES,
  leiProblem,
  LEVELS,
  REINTEGRATION,
  SUBSTITUTABILITY,
} from './codes';
import { getPath, ProfileDraft, ProfileErrors, ProfileField, ProfileSection, setPath, type ProfileDraftApi } from './ProfileField';
import styles from './Profile.module.css';
import { DraftPanel } from './DraftPanel';
import type { Certification, ExitPlan, Subcontractor, VendorProfile } from './types';
import { Contracts } from './Contracts';
import { Select, YesNo } from './controls';
import { Subcontractors } from './Subcontractors';

/** The fields the profile form edits (PATCH replaces them; contracts have their own routes: Contracts.tsx). */
const PROFILE_KEYS: (keyof VendorProfile)[] = [
  'legalName',
  'identifier',
  'country',
  'website',
  'description',
  'ictServiceType',
  'criticalityTier',
  'supportsCriticalFunction',
  'nextReviewDate',
  'lastAuditDate',
  'substitutability',
  'discontinuationImpact',
  'exitPlan',
  'certifications',
  'subcontractors',
];

/** `vendorProfile.contracts.0.endDate: must not ...` -> Map('contracts.0.endDate' -> ['must not ...']). */
function errorsByPath(err: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!(err instanceof ApiError)) return out;
  for (const d of err.details) {
    const m = /^(?:body\.)?vendorProfile\.?([^:]*):\s*(.+)$/.exec(d);
    // A union's alternatives add noise to a pattern error ("must be null", "must match a schema in anyOf").
    if (!m || /^must (be null|match a schema in anyOf)$/.test(m[2]!)) continue;
    const key = m[1] || '_';
    out.set(key, [...(out.get(key) ?? []), m[2]!]);
  }
  return out;
}

const blank = (s: string | undefined) => !s?.trim();
/** The draft as the API takes it: empty values left out; every key given (null clears it). */
export function toPatch(d: VendorProfile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return v.trim() ? v.trim() : undefined;
    if (Array.isArray(v)) return v.map(clean).filter((x) => x !== undefined);
    if (v && typeof v === 'object') {
      const o = Object.fromEntries(
        Object.entries(v)
          .map(([k, x]) => [k, clean(x)])
          .filter(([, x]) => x !== undefined),
      );
      return Object.keys(o).length ? o : undefined;
    }
    return v;
  };
  for (const k of PROFILE_KEYS) {
    let v = clean(d[k]);
    if (k === 'identifier' && v && !(v as { value?: string }).value) v = undefined;
    if (k === 'exitPlan' && v && (v as ExitPlan).exists === undefined) v = undefined;
    if (k === 'subcontractors' && Array.isArray(v)) v = (v as Subcontractor[]).filter((x) => x.name);
    if (Array.isArray(v) && v.length === 0 && k !== 'certifications') v = undefined;
    out[k] = v === undefined ? null : v;
  }
  return out;
}

/**
 * The keys of the draft that differ from the profile as it was when editing began, as the API
 * takes them: a field changed meanwhile elsewhere (a drafted value accepted, a colleague's save,
 * a contract edited in its own form) is left as the server has it, not overwritten with what
 * this form showed. The unit is the top-level key: a list (subcontractors) is sent whole.
 */
export function changedKeys(draft: VendorProfile, baseline: VendorProfile): Record<string, unknown> {
  const now = toPatch(draft);
  const before = toPatch(baseline);
  return Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
}

/** The vendor profile: every field of the Register of Information the API keeps, grouped as the register groups them. */
export default function ProfileTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const stored = vendor.vendorProfile as VendorProfile;
  const [draft, setDraft] = useState<VendorProfile>(stored);
  // The profile as it was when the analyst started editing: saving sends only what differs from it.
  const [baseline, setBaseline] = useState<VendorProfile>(stored);
  const [dirty, setDirty] = useState(false);
  const canEdit = vendor.permissions.canEditSettings;
  const qc = useQueryClient();
  const toast = useToast();
  const location = useLocation();

  useEffect(() => {
    if (dirty) return;
    setDraft(stored);
    setBaseline(stored);
  }, [stored, dirty]);

  // A link from the register's to-do list (#contracts.0.ictServiceType): bring that field into view and focus it.
  // The field may not be rendered on the first pass (the vendor is still loading, a contract row is added by a
  // refetch), so it is looked for on each frame for up to 2 s; a parent section is used only when the field
  // itself never appears.
  useEffect(() => {
    const target = decodeURIComponent(location.hash.slice(1))
      .replace(/^vendorProfile\.?/, '')
      .replace(/\*$/, 'Entity');
    if (!target) return;
    const parts = target.split('.');
    const find = (exactOnly: boolean): HTMLElement | null => {
      for (let n = parts.length; n > 0; n--) {
        const p = parts.slice(0, n).join('.');
        const el =
          document.getElementById(`field-${p}`) ??
          document.querySelector<HTMLElement>(`[data-field^="${CSS.escape(p)}."]`) ??
          document.getElementById(`section-${p}`);
        if (el) return el;
        if (exactOnly) return null;
      }
      return null;
    };
    const started = performance.now();
    let frame = 0;
    let unhighlight: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      const late = performance.now() - started > 2000;
      const el = find(!late);
      if (el) {
        el.scrollIntoView({ block: 'center' });
        const control = el.querySelector<HTMLElement>('input, select, textarea, button');
        control?.focus({ preventScroll: true });
        if (!control || document.activeElement === control || late) {
          el.classList.add(styles.highlight!);
          unhighlight = setTimeout(() => el.classList.remove(styles.highlight!), 2500);
          return;
        }
      } else if (late) return;
      frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => {
      cancelAnimationFrame(frame);
      if (unhighlight) clearTimeout(unhighlight);
    };
  }, [location.hash]);

  const save = useMutation({
    mutationFn: () => patch<ApiData<'updateWorkspace'>>(`/workspaces/${encodeURIComponent(vendor.id)}`, { vendorProfile: changedKeys(draft, baseline) }),
    onSuccess: async ({ workspace }) => {
      qc.setQueryData(vendorKey(vendor.workspaceId), (old: Workspace | undefined) => (old ? { ...old, ...workspace } : old));
      qc.invalidateQueries({ queryKey: ['concentration'] });
      await Promise.all([
        qc.invalidateQueries({ queryKey: vendorKey(vendor.workspaceId) }),
        qc.invalidateQueries({ queryKey: vendorsKey }),
        qc.invalidateQueries({ queryKey: ['roi-preflight'] }),
      ]);
      setDirty(false);
      setDraft(workspace.vendorProfile as VendorProfile);
      setBaseline(workspace.vendorProfile as VendorProfile);
      toast.show('Vendor profile saved', 'success');
    },
  });
  const errors = useMemo(() => errorsByPath(save.error), [save.error]);

  const set = <K extends keyof VendorProfile>(k: K, v: VendorProfile[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setDirty(true);
  };
  const certs = draft.certifications ?? [];
  const exit = draft.exitPlan;
  const setCert = (i: number, c: Partial<Certification>) =>
    set(
      'certifications',
      certs.map((x, j) => (j === i ? { ...x, ...c } : x)),
    );
  const setExit = (e: Partial<ExitPlan>) => set('exitPlan', { exists: exit?.exists as boolean, ...exit, ...e });
  const lei = draft.identifier?.type === 'LEI' && !blank(draft.identifier.value) ? leiProblem(draft.identifier.value) : undefined;

  const draftApi = useMemo<ProfileDraftApi>(
    () => ({
      get: (path) => getPath(draft, path),
      set: (path, value) => {
        setDraft((d) => setPath(d, path, value));
        setDirty(true);
      },
    }),
    [draft],
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <ProfileDraft.Provider value={draftApi}>
      <ProfileErrors.Provider value={errors}>
        <DraftPanel vendor={vendor} />
        <Contracts vendor={vendor} />
        <WouldAddPanel workspaceId={vendor.id} />
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Vendor profile">
          <div className="page-header" style={{ marginBottom: 12 }}>
            <div>
              <h2>Vendor profile</h2>
              <p className="page-sub">
                What the Register of Information needs about this ICT third-party service provider. Every field is optional; the{' '}
                <Link to="/register-of-information">register pre-flight</Link> lists what is still missing.
              </p>
            </div>
          </div>
          {!canEdit && (
            <p className="alert alert-info" role="note">
              Only the owner of this vendor workspace ({vendor.owner.name}) can change its profile; you see it read-only.
            </p>
          )}
          <nav aria-label="Profile sections">
            <ul className={styles.toc}>
              {[
                ['provider', 'Provider'],
                ['services', 'Services and criticality'],
                ['contracts', 'Contractual arrangements'],
                ['exit', 'Substitutability and exit'],
                ['subcontractors', 'Subcontractors'],
                ['certifications', 'Certifications'],
              ].map(([id, label]) => (
                <li key={id}>
                  <a href={`#section-${id}`}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <fieldset disabled={!canEdit || save.isPending} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <ProfileSection id="provider" title="ICT third-party service provider" register="Template B_05.01: identification of the provider">
              <div className={styles.grid}>
                <ProfileField path="legalName" label="Legal name" hint="As registered, e.g. GitHub, Inc.">
                  {(c) => <input {...c} value={draft.legalName ?? ''} maxLength={300} onChange={(e) => set('legalName', e.target.value)} />}
                </ProfileField>
                <ProfileField path="identifier.type" label="Type of identification code">
                  {(c) => (
                    <Select
                      c={c}
                      value={draft.identifier?.type ?? ''}
                      options={IDENTIFIER_TYPES}
                      onChange={(v) => set('identifier', v ? { type: v, value: draft.identifier?.value ?? '' } : undefined)}
                    />
                  )}
                </ProfileField>
                <ProfileField
                  path="identifier.value"
                  label={draft.identifier?.type === 'LEI' ? 'LEI' : 'Identification code'}
                  errorAlso={['identifier']}
                  problem={lei}
                  hint={
                    draft.identifier?.type === 'LEI'
                      ? 'ISO 17442: 20 characters; the check digits are verified as you type.'
                      : 'Key of the provider in the register (B_05.01 c0010).'
                  }
                >
                  {(c) => (
                    <>
                      <input
                        {...c}
                        value={draft.identifier?.value ?? ''}
                        maxLength={100}
                        autoComplete="off"
                        spellCheck={false}
                        style={{ fontFamily: 'var(--mono)' }}
                        onChange={(e) =>
                          set('identifier', {
                            type: draft.identifier?.type ?? 'LEI',
                            value: draft.identifier?.type === 'LEI' || !draft.identifier?.type ? e.target.value.toUpperCase() : e.target.value,
                          })
                        }
                      />
                      {lei === null && (
                        <p className={styles.leiOk} role="status">
                          <CheckCircle2 size={14} aria-hidden="true" /> Valid LEI check digits
                        </p>
                      )}
                    </>
                  )}
                </ProfileField>
                <ProfileField path="country" label="Country of headquarters">
                  {(c) => <Select c={c} value={draft.country ?? ''} options={COUNTRY_OPTIONS} onChange={(v) => set('country', v || undefined)} />}
                </ProfileField>
                <ProfileField path="website" label="Website" hint="http:// or https:// address">
                  {(c) => (
                    <input
                      {...c}
                      type="url"
                      value={draft.website ?? ''}
                      maxLength={500}
                      placeholder="https://"
                      onChange={(e) => set('website', e.target.value)}
                    />
                  )}
                </ProfileField>
                <ProfileField
                  path="description"
                  label="Description of the services"
                  wide
                  hint="Shown in B_06.01 for critical functions (first 300 characters)."
                >
                  {(c) => <textarea {...c} value={draft.description ?? ''} maxLength={2000} rows={3} onChange={(e) => set('description', e.target.value)} />}
                </ProfileField>
              </div>
            </ProfileSection>

            <ProfileSection
              id="services"
              title="ICT services and criticality"
              register="Templates B_02.02 and B_06.01: type of ICT services, level of reliance, critical or important function"
            >
              <div className={styles.grid}>
                <ProfileField path="ictServiceType" label="Type of ICT services" hint="Annex III; a contract can name its own.">
                  {(c) => <Select c={c} value={draft.ictServiceType ?? ''} options={ICT_OPTIONS} onChange={(v) => set('ictServiceType', v || undefined)} />}
                </ProfileField>
                <ProfileField path="criticalityTier" label="Criticality tier" hint="Your own tiering; gives the level of reliance.">
                  {(c) => (
                    <Select c={c} value={draft.criticalityTier ?? ''} options={CRITICALITY_TIERS} onChange={(v) => set('criticalityTier', v || undefined)} />
                  )}
                </ProfileField>
                <ProfileField path="supportsCriticalFunction" label="Supports a critical or important function" hint="Must be yes when the tier is critical.">
                  {(c) => <YesNo c={c} value={draft.supportsCriticalFunction} onChange={(v) => set('supportsCriticalFunction', v)} />}
                </ProfileField>
                <ProfileField path="nextReviewDate" label="Next review date">
                  {(c) => <input {...c} type="date" value={draft.nextReviewDate ?? ''} onChange={(e) => set('nextReviewDate', e.target.value || undefined)} />}
                </ProfileField>
              </div>
            </ProfileSection>

            <ProfileSection id="exit" title="Substitutability and exit" register="Template B_07.01: assessment of the ICT services provided">
              <div className={styles.grid}>
                <ProfileField path="lastAuditDate" label="Date of the last audit of the provider">
                  {(c) => <input {...c} type="date" value={draft.lastAuditDate ?? ''} onChange={(e) => set('lastAuditDate', e.target.value || undefined)} />}
                </ProfileField>
                <ProfileField path="substitutability" label="Substitutability">
                  {(c) => (
                    <Select c={c} value={draft.substitutability ?? ''} options={SUBSTITUTABILITY} onChange={(v) => set('substitutability', v || undefined)} />
                  )}
                </ProfileField>
                <ProfileField path="discontinuationImpact" label="Impact of discontinuing the services">
                  {(c) => (
                    <Select c={c} value={draft.discontinuationImpact ?? ''} options={LEVELS} onChange={(v) => set('discontinuationImpact', v || undefined)} />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.exists" label="Exit plan exists" errorAlso={['exitPlan']}>
                  {(c) => (
                    <YesNo
                      c={c}
                      value={exit?.exists}
                      onChange={(v) => (v === undefined ? set('exitPlan', undefined) : setExit({ exists: v, ...(v ? {} : { lastTestedDate: undefined }) }))}
                    />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.lastTestedDate" label="Exit plan last tested">
                  {(c) => (
                    <input
                      {...c}
                      type="date"
                      value={exit?.lastTestedDate ?? ''}
                      disabled={!exit?.exists}
                      onChange={(e) => setExit({ lastTestedDate: e.target.value || undefined })}
                    />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.reintegrationPossibility" label="Possibility of reintegration">
                  {(c) => (
                    <Select
                      c={c}
                      value={exit?.reintegrationPossibility ?? ''}
                      options={REINTEGRATION}
                      disabled={exit?.exists === undefined}
                      onChange={(v) => setExit({ reintegrationPossibility: v || undefined })}
                    />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.alternativeProvidersIdentified" label="Alternative providers identified">
                  {(c) => (
                    <YesNo
                      c={c}
                      value={exit?.alternativeProvidersIdentified}
                      disabled={exit?.exists === undefined}
                      onChange={(v) => setExit({ alternativeProvidersIdentified: v })}
                    />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.alternativeProviders" label="Alternative providers" hint="One per line." wide>
                  {(c) => (
                    <textarea
                      {...c}
                      rows={2}
                      disabled={exit?.exists === undefined}
                      value={(exit?.alternativeProviders ?? []).join('\n')}
                      onChange={(e) => setExit({ alternativeProviders: e.target.value.split('\n') })}
                    />
                  )}
                </ProfileField>
                <ProfileField path="exitPlan.notes" label="Notes on the exit plan" wide>
                  {(c) => (
                    <textarea
                      {...c}
                      rows={2}
                      maxLength={2000}
                      disabled={exit?.exists === undefined}
                      value={exit?.notes ?? ''}
                      onChange={(e) => setExit({ notes: e.target.value })}
                    />
                  )}
                </ProfileField>
              </div>
            </ProfileSection>

            <Subcontractors value={draft.subcontractors ?? []} onChange={(v) => set('subcontractors', v)} canEdit={canEdit} />

            <ProfileSection
              id="certifications"
              title="Certifications"
              register="Sheet RT.03.01 of the workbook: one row per certification"
              action={
                canEdit && (
                  <Button
                    size="sm"
                    icon={<Plus size={14} aria-hidden="true" />}
                    onClick={() => set('certifications', [...certs, { type: '', status: 'valid' }])}
                  >
                    Add a certification
                  </Button>
                )
              }
            >
              {certs.length === 0 && <p className="muted">No certification recorded.</p>}
              {certs.map((k, i) => {
                const p = `certifications.${i}`;
                return (
                  <div key={i} className={styles.item} id={`field-${p}`}>
                    <div className={styles.itemHead}>
                      <h3>{k.type || `Certification ${i + 1}`}</h3>
                      {canEdit && (
                        <Button
                          size="sm"
                          variant="ghost"
                          icon={<Trash2 size={14} aria-hidden="true" />}
                          onClick={() =>
                            set(
                              'certifications',
                              certs.filter((_, j) => j !== i),
                            )
                          }
                          aria-label={`Remove certification ${k.type || i + 1}`}
                        >
                          Remove
                        </Button>
                      )}
                    </div>
                    <div className={styles.grid}>
                      <ProfileField path={`${p}.type`} label="Certification" hint="e.g. ISO/IEC 27001, SOC 2 Type II">
                        {(c) => <input {...c} value={k.type} maxLength={100} list="cert-types" onChange={(e) => setCert(i, { type: e.target.value })} />}
                      </ProfileField>
                      <ProfileField path={`${p}.issuer`} label="Issuer">
                        {(c) => <input {...c} value={k.issuer ?? ''} maxLength={200} onChange={(e) => setCert(i, { issuer: e.target.value })} />}
                      </ProfileField>
                      <ProfileField path={`${p}.validUntil`} label="Valid until">
                        {(c) => (
                          <input {...c} type="date" value={k.validUntil ?? ''} onChange={(e) => setCert(i, { validUntil: e.target.value || undefined })} />
                        )}
                      </ProfileField>
                      <ProfileField path={`${p}.status`} label="Status">
                        {(c) => <Select c={c} value={k.status} options={CERTIFICATION_STATUSES} required onChange={(v) => v && setCert(i, { status: v })} />}
                      </ProfileField>
                    </div>
                  </div>
                );
              })}
              <datalist id="cert-types">
                {['ISO/IEC 27001', 'ISO/IEC 27017', 'ISO/IEC 27018', 'ISO 22301', 'SOC 1 Type II', 'SOC 2 Type II', 'C5', 'PCI DSS'].map((x) => (
                  <option key={x} value={x} />
                ))}
              </datalist>
            </ProfileSection>
          </fieldset>

          {canEdit && (
            <div className={styles.saveBar}>
              <p role="status">{save.isPending ? 'Saving…' : dirty ? 'You have unsaved changes.' : 'All changes saved.'}</p>
              {dirty && (
                <Button
                  onClick={() => {
                    setDraft(stored);
                    setDirty(false);
                    save.reset();
                  }}
                >
                  Discard changes
                </Button>
              )}
              <Button type="submit" variant="primary" busy={save.isPending} disabled={!dirty}>
                Save profile
              </Button>
            </div>
          )}
          {save.isError && (
            <div style={{ marginTop: 12 }}>
              <ErrorMessage error={save.error} title="The profile was not saved" />
            </div>
          )}
        </form>
      </ProfileErrors.Provider>
    </ProfileDraft.Provider>
  );
}
