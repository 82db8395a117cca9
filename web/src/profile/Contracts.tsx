import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarX2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiError, del, patch, post } from '../api/client';
import type { ApiData, Workspace } from '../api/types';
import { functionsKey, preflightKey, useCodeLists, useFunctions } from '../register/api';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { useToast } from '../ui/Toasts';
import { vendorKey } from '../vendors/api';
import { COUNTRY_OPTIONS, countryLabel, CURRENCY_CODES, ICT_OPTIONS, LEVELS } from './codes';
import { Countries, NumberInput, Select, YesNo } from './controls';
import { ProfileErrors, ProfileField, ProfileSection } from './ProfileField';
import styles from './Profile.module.css';
import type { Contract, VendorProfile } from './types';

const ARRANGEMENTS = [
  { value: 'standalone', label: 'Standalone arrangement' },
  { value: 'overarching', label: 'Overarching arrangement (framework)' },
  { value: 'subsequent', label: 'Subsequent or associated arrangement' },
];
/** The fields the contract form edits (what PATCH sends: null clears an optional one). */
const FIELDS: (keyof Contract)[] = [
  'reference',
  'arrangementType',
  'overarchingReference',
  'ictServiceType',
  'startDate',
  'endDate',
  'noticePeriodDaysEntity',
  'noticePeriodDaysProvider',
  'governingLaw',
  'annualCost',
  'functionIds',
  'serviceLocations',
  'storesData',
  'dataStorageLocations',
  'dataSensitivity',
  'processesData',
  'dataProcessingLocations',
];

/** `vendorProfile.contracts.0.endDate: …`, `body.endDate: …`, `functionIds: …` -> field -> messages. */
function errorsOf(err: unknown, path: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!(err instanceof ApiError)) return out;
  for (const d of err.details) {
    const m = /^(?:body\.|vendorProfile\.contracts\.\d+\.)?([A-Za-z]+)[^:]*:\s*(.+)$/.exec(d);
    if (!m || !FIELDS.includes(m[1] as keyof Contract) || /^must (be null|match a schema in anyOf)$/.test(m[2]!)) continue;
    const key = `${path}.${m[1]}`;
    out.set(key, [...(out.get(key) ?? []), m[2]!]);
  }
  return out;
}

const normalised = (v: unknown) => {
  if (typeof v === 'string') v = v.trim() || undefined;
  if (Array.isArray(v) && v.length === 0) v = undefined;
  return v === undefined ? null : v;
};

/**
 * What PATCH sends: only the fields the analyst changed in the form (null clears one), so a
 * field changed meanwhile elsewhere (a drafted value accepted in another panel, a colleague's
 * edit) is not overwritten with what the form showed when it opened. A new contract sends all.
 */
const bodyOf = (c: Contract, current?: Contract) => {
  const body: Record<string, unknown> = {};
  for (const k of FIELDS) {
    const v = normalised(c[k]);
    if (current && JSON.stringify(v) === JSON.stringify(normalised(current[k]))) continue;
    body[k] = v;
  }
  return body;
};

/**
 * A vendor's contractual arrangements as records (docs/register-of-information.md, "Contracts"):
 * added, changed, ended and deleted one at a time, each linked to the business functions it
 * supports. Members who manage the vendor (canManageSync) edit them.
 */
export function Contracts({ vendor }: { vendor: Workspace }) {
  const profile = vendor.vendorProfile as VendorProfile;
  const contracts = profile.contracts ?? [];
  const canEdit = vendor.permissions.canManageSync;
  const fns = useFunctions();
  const codes = useCodeLists();
  const qc = useQueryClient();
  const toast = useToast();
  const location = useLocation();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [ending, setEnding] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  // A link from the register's to-do list to a contract's field (#contracts.0.functionIds) opens that contract.
  useEffect(() => {
    const m = /^#contracts\.(\d+)\./.exec(decodeURIComponent(location.hash));
    if (m && canEdit && Number(m[1]) < contracts.length) setEditing(Number(m[1]));
  }, [location.hash, canEdit, contracts.length]);

  const saved = async (res: { vendorProfile: unknown }, message: string) => {
    qc.setQueryData(vendorKey(vendor.workspaceId), (old: Workspace | undefined) =>
      old ? { ...old, vendorProfile: res.vendorProfile as Record<string, unknown> } : old,
    );
    await Promise.all([vendorKey(vendor.workspaceId), preflightKey, functionsKey].map((queryKey) => qc.invalidateQueries({ queryKey })));
    toast.show(message, 'success');
  };
  const remove = useMutation({
    mutationFn: (c: Contract) => del(`/workspaces/${encodeURIComponent(vendor.id)}/contracts/${encodeURIComponent(c.id!)}`),
    onSuccess: async () => {
      setDeleting(null);
      await Promise.all([vendorKey(vendor.workspaceId), preflightKey, functionsKey].map((queryKey) => qc.invalidateQueries({ queryKey })));
      toast.show('Contract deleted', 'success');
    },
  });
  const fnName = (id: string) => {
    const f = fns.data?.find((x) => x.id === id);
    return f ? `${f.code} ${f.name}` : 'a function no longer in the register';
  };
  const reasonLabel = (r: string) => codes.data?.terminationReasons.find((o) => o.value === r)?.label ?? r;

  return (
    <ProfileSection
      id="contracts"
      title="Contractual arrangements"
      register="Templates B_02.01 to B_04.01: one contract per arrangement, its reference unique in your register (a vendor without a contract is left out of the package)"
      action={
        canEdit &&
        editing !== 'new' && (
          <Button size="sm" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing('new')}>
            Add a contract
          </Button>
        )
      }
    >
      {editing === 'new' && <ContractForm vendor={vendor} index={contracts.length} onDone={() => setEditing(null)} onSaved={saved} />}
      {contracts.length === 0 && editing !== 'new' && <p className="muted">No contract recorded yet.</p>}
      {contracts.map((c, i) =>
        editing === i ? (
          <ContractForm key={c.id ?? i} vendor={vendor} index={i} current={c} onDone={() => setEditing(null)} onSaved={saved} />
        ) : (
          <div key={c.id ?? i} className={styles.item} id={`field-contracts.${i}`} data-contract={c.reference}>
            <div className={styles.itemHead}>
              <h3>Contract {c.reference}</h3>
              {c.endDate && c.terminationReason && <span className="badge badge-muted">Ended {c.endDate}</span>}
            </div>
            <dl className={styles.facts}>
              <div>
                <dt>Period</dt>
                <dd>
                  {c.startDate} to {c.endDate ?? 'open-ended'}
                </dd>
              </div>
              <div>
                <dt>Type of ICT services</dt>
                <dd>{c.ictServiceType ?? (profile.ictServiceType ? `${profile.ictServiceType} (the provider's)` : <span className="muted">not set</span>)}</dd>
              </div>
              <div>
                <dt>Annual cost</dt>
                <dd>{c.annualCost ? `${c.annualCost.amount.toLocaleString()} ${c.annualCost.currency}` : <span className="muted">not set</span>}</dd>
              </div>
              <div>
                <dt>Governing law</dt>
                <dd>{c.governingLaw ? countryLabel(c.governingLaw) : <span className="muted">not set</span>}</dd>
              </div>
              <div>
                <dt>Provided from</dt>
                <dd>{c.serviceLocations?.length ? c.serviceLocations.map(countryLabel).join(', ') : <span className="muted">not set</span>}</dd>
              </div>
            </dl>
            <p className="small">
              {c.functionIds?.length ? `Supports ${c.functionIds.map(fnName).join(', ')}` : <span className="muted">Supports no business function yet.</span>}
              {c.terminationReason && ` · Ended: ${reasonLabel(c.terminationReason)}`}
            </p>
            {canEdit && (
              <div className={styles.rowActions}>
                <Button size="sm" icon={<Pencil size={14} aria-hidden="true" />} onClick={() => setEditing(i)} aria-label={`Edit contract ${c.reference}`}>
                  Edit
                </Button>
                {!c.terminationReason && (
                  <Button size="sm" icon={<CalendarX2 size={14} aria-hidden="true" />} onClick={() => setEnding(i)} aria-label={`End contract ${c.reference}`}>
                    End
                  </Button>
                )}
                {deleting === i ? (
                  <>
                    <Button size="sm" variant="danger" busy={remove.isPending} onClick={() => remove.mutate(c)}>
                      Delete {c.reference}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setDeleting(null)}>
                      Keep it
                    </Button>
                  </>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    onClick={() => setDeleting(i)}
                    aria-label={`Delete contract ${c.reference}`}
                  >
                    Delete
                  </Button>
                )}
              </div>
            )}
            {ending === i && <EndForm vendor={vendor} contract={c} onDone={() => setEnding(null)} onSaved={saved} />}
            {remove.isError && deleting === i && <ErrorMessage error={remove.error} title="The contract was not deleted" />}
          </div>
        ),
      )}
      {(fns.data?.length ?? 0) === 0 && canEdit && (
        <p className="small muted">
          Contracts are linked to the business functions they support: add your functions on the{' '}
          <Link to="/register-of-information#functions">register page</Link>.
        </p>
      )}
    </ProfileSection>
  );
}

function ContractForm({
  vendor,
  index,
  current,
  onDone,
  onSaved,
}: {
  vendor: Workspace;
  index: number;
  current?: Contract;
  onDone(): void;
  onSaved(res: { vendorProfile: unknown }, message: string): Promise<void>;
}) {
  const profile = vendor.vendorProfile as VendorProfile;
  const fns = useFunctions();
  const [c, setC] = useState<Contract>(current ?? { reference: '', startDate: '' });
  // The contract as it was when the form opened: what the analyst changed is measured against it, not against a
  // refetched copy (which may hold a change made elsewhere meanwhile, that the form would then send back).
  const [opened] = useState<Contract | undefined>(current);
  const set = (x: Partial<Contract>) => setC((d) => ({ ...d, ...x }));
  const base = `/workspaces/${encodeURIComponent(vendor.id)}/contracts`;
  const save = useMutation({
    mutationFn: () => {
      const body = bodyOf(c, opened);
      if (current && Object.keys(body).length === 0) return Promise.resolve(null);
      if (current) return patch<ApiData<'updateContract'>>(`${base}/${encodeURIComponent(current.id!)}`, body);
      return post<ApiData<'createContract'>>(base, Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)));
    },
    onSuccess: async (res) => {
      if (res) await onSaved(res, current ? `Contract ${c.reference} saved` : `Contract ${c.reference} added`);
      onDone();
    },
  });
  const p = `contracts.${index}`;
  const errors = useMemo(() => errorsOf(save.error, p), [save.error, p]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const toggleFunction = (id: string, on: boolean) => set({ functionIds: on ? [...(c.functionIds ?? []), id] : (c.functionIds ?? []).filter((x) => x !== id) });
  return (
    <ProfileErrors.Provider value={errors}>
      <form className={styles.item} onSubmit={submit} noValidate aria-label={current ? `Contract ${current.reference}` : 'New contract'} id={`field-${p}`}>
        <div className={styles.itemHead}>
          <h3>{current ? `Contract ${current.reference}` : 'New contract'}</h3>
        </div>
        <div className={styles.grid}>
          <ProfileField path={`${p}.reference`} label="Contract reference number" hint="Unique in your register; the key of the arrangement.">
            {(x) => <input {...x} value={c.reference} maxLength={100} required onChange={(e) => set({ reference: e.target.value })} />}
          </ProfileField>
          <ProfileField path={`${p}.arrangementType`} label="Type of arrangement">
            {(x) => (
              <Select
                c={x}
                value={c.arrangementType ?? ''}
                options={ARRANGEMENTS}
                emptyLabel="Standalone arrangement"
                onChange={(v) => set({ arrangementType: (v || undefined) as Contract['arrangementType'] })}
              />
            )}
          </ProfileField>
          {c.arrangementType === 'subsequent' && (
            <ProfileField path={`${p}.overarchingReference`} label="Reference of the overarching arrangement">
              {(x) => <input {...x} value={c.overarchingReference ?? ''} maxLength={100} onChange={(e) => set({ overarchingReference: e.target.value })} />}
            </ProfileField>
          )}
          <ProfileField path={`${p}.ictServiceType`} label="Type of ICT services" hint="Leave empty to use the provider's.">
            {(x) => (
              <Select
                c={x}
                value={c.ictServiceType ?? ''}
                options={ICT_OPTIONS}
                onChange={(v) => set({ ictServiceType: v || undefined })}
                emptyLabel={profile.ictServiceType ? `As the provider (${profile.ictServiceType})` : 'Not set'}
              />
            )}
          </ProfileField>
          <ProfileField path={`${p}.startDate`} label="Start date">
            {(x) => <input {...x} type="date" value={c.startDate} required onChange={(e) => set({ startDate: e.target.value })} />}
          </ProfileField>
          <ProfileField path={`${p}.endDate`} label="End date" hint="Empty: open-ended.">
            {(x) => <input {...x} type="date" value={c.endDate ?? ''} onChange={(e) => set({ endDate: e.target.value || undefined })} />}
          </ProfileField>
          <ProfileField path={`${p}.noticePeriodDaysEntity`} label="Notice period of the entity (days)">
            {(x) => <NumberInput c={x} value={c.noticePeriodDaysEntity} min={0} max={3650} onChange={(v) => set({ noticePeriodDaysEntity: v })} />}
          </ProfileField>
          <ProfileField path={`${p}.noticePeriodDaysProvider`} label="Notice period of the provider (days)">
            {(x) => <NumberInput c={x} value={c.noticePeriodDaysProvider} min={0} max={3650} onChange={(v) => set({ noticePeriodDaysProvider: v })} />}
          </ProfileField>
          <ProfileField path={`${p}.governingLaw`} label="Governing law (country)">
            {(x) => <Select c={x} value={c.governingLaw ?? ''} options={COUNTRY_OPTIONS} onChange={(v) => set({ governingLaw: v || undefined })} />}
          </ProfileField>
          <ProfileField path={`${p}.annualCost.amount`} label="Annual cost" errorAlso={[`${p}.annualCost`]}>
            {(x) => (
              <NumberInput
                c={x}
                value={c.annualCost?.amount}
                min={0}
                step="any"
                onChange={(v) => set({ annualCost: v === undefined ? undefined : { amount: v, currency: c.annualCost?.currency ?? 'EUR' } })}
              />
            )}
          </ProfileField>
          <ProfileField path={`${p}.annualCost.currency`} label="Currency of the cost" hint="Converted to the reporting currency at a rate you record.">
            {(x) => (
              <Select
                c={x}
                value={c.annualCost?.currency ?? ''}
                options={CURRENCY_CODES.map((v) => ({ value: v, label: v }))}
                onChange={(v) => set({ annualCost: v ? { amount: c.annualCost?.amount ?? 0, currency: v } : undefined })}
              />
            )}
          </ProfileField>
          <div className={`${styles.row} ${styles.wide}`} id={`field-${p}.functionIds`} data-field={`${p}.functionIds`}>
            <fieldset className={styles.functionPick}>
              <legend>Business functions it supports</legend>
              {(fns.data ?? []).length === 0 && (
                <p className="muted small">
                  No business function yet: add them on the <Link to="/register-of-information#functions">register page</Link>.
                </p>
              )}
              {(fns.data ?? []).map((f) => (
                <label key={f.id} className={styles.check}>
                  <input type="checkbox" checked={c.functionIds?.includes(f.id) ?? false} onChange={(e) => toggleFunction(f.id, e.target.checked)} />
                  {f.code} {f.name}
                  {f.criticality === 'yes' && <span className="badge badge-warn">critical or important</span>}
                </label>
              ))}
              {errors.get(`${p}.functionIds`)?.map((m) => (
                <p key={m} className="field-error" role="alert">
                  {m}
                </p>
              ))}
            </fieldset>
          </div>
          <ProfileField path={`${p}.serviceLocations`} label="Countries where the service is provided" wide>
            {(x) => <Countries c={x} value={c.serviceLocations ?? []} onChange={(v) => set({ serviceLocations: v })} />}
          </ProfileField>
          <ProfileField path={`${p}.storesData`} label="Stores data of the entity">
            {(x) => (
              <YesNo
                c={x}
                value={c.storesData}
                onChange={(v) => set({ storesData: v, ...(v === false ? { dataStorageLocations: undefined, dataSensitivity: undefined } : {}) })}
              />
            )}
          </ProfileField>
          <ProfileField path={`${p}.dataSensitivity`} label="Sensitiveness of the data stored">
            {(x) => (
              <Select
                c={x}
                value={c.dataSensitivity ?? ''}
                options={LEVELS}
                disabled={c.storesData === false}
                onChange={(v) => set({ dataSensitivity: (v || undefined) as Contract['dataSensitivity'] })}
              />
            )}
          </ProfileField>
          <ProfileField path={`${p}.dataStorageLocations`} label="Countries where data is stored" wide>
            {(x) => (
              <Countries c={x} value={c.dataStorageLocations ?? []} disabled={c.storesData === false} onChange={(v) => set({ dataStorageLocations: v })} />
            )}
          </ProfileField>
          <ProfileField path={`${p}.processesData`} label="Processes data of the entity">
            {(x) => (
              <YesNo
                c={x}
                value={c.processesData}
                onChange={(v) => set({ processesData: v, ...(v === false ? { dataProcessingLocations: undefined } : {}) })}
              />
            )}
          </ProfileField>
          <ProfileField path={`${p}.dataProcessingLocations`} label="Countries where data is processed" wide>
            {(x) => (
              <Countries
                c={x}
                value={c.dataProcessingLocations ?? []}
                disabled={c.processesData === false}
                onChange={(v) => set({ dataProcessingLocations: v })}
              />
            )}
          </ProfileField>
        </div>
        {save.isError && <ErrorMessage error={save.error} title="The contract was not saved" />}
        <div className={styles.rowActions}>
          <Button type="submit" variant="primary" busy={save.isPending} disabled={!c.reference.trim() || !c.startDate}>
            {current ? 'Save the contract' : 'Add the contract'}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </ProfileErrors.Provider>
  );
}

function EndForm({
  vendor,
  contract,
  onDone,
  onSaved,
}: {
  vendor: Workspace;
  contract: Contract;
  onDone(): void;
  onSaved(res: { vendorProfile: unknown }, message: string): Promise<void>;
}) {
  const codes = useCodeLists();
  const [endDate, setEndDate] = useState(contract.endDate ?? new Date().toISOString().slice(0, 10));
  const [reason, setReason] = useState('');
  const end = useMutation({
    mutationFn: () =>
      post<ApiData<'endContract'>>(`/workspaces/${encodeURIComponent(vendor.id)}/contracts/${encodeURIComponent(contract.id!)}/end`, {
        endDate,
        terminationReason: reason,
      }),
    onSuccess: async (res) => {
      await onSaved(res, `Contract ${contract.reference} ended`);
      onDone();
    },
  });
  const id = `end-${contract.id}`;
  return (
    <form
      className={styles.endForm}
      onSubmit={(e) => {
        e.preventDefault();
        end.mutate();
      }}
      aria-label={`End contract ${contract.reference}`}
    >
      <div className="field">
        <label htmlFor={`${id}-date`}>End date</label>
        <input id={`${id}-date`} type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason of the termination</label>
        <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)}>
          <option value="">Choose…</option>
          {(codes.data?.terminationReasons ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary" busy={end.isPending} disabled={!endDate || !reason}>
        End the contract
      </Button>
      <Button variant="ghost" onClick={onDone}>
        Cancel
      </Button>
      {end.isError && <ErrorMessage error={end.error} title="The contract was not ended" />}
    </form>
  );
}
