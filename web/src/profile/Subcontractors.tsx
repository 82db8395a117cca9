import { Plus, Trash2 } from 'lucide-react';
import { COUNTRY_OPTIONS, IDENTIFIER_TYPES, leiProblem } from './codes';
import { ProfileField, ProfileSection } from './ProfileField';
import { Select } from './controls';
import { Button } from '../ui/Button';
import styles from './Profile.module.css';
import type { Subcontractor } from './types';

/**
 * The provider's subcontractors (docs/register-of-information.md, "Supply chain"): drafted from
 * its documents or entered here. One with an identification code (its LEI where it has one) is
 * reported as an ICT third-party service provider of rank 2 under each of the vendor's contracts
 * (B_05.02) and in B_05.01; one without is left out, and the register's to-do list says so.
 */
export function Subcontractors({ value, onChange, canEdit }: { value: Subcontractor[]; onChange(v: Subcontractor[]): void; canEdit: boolean }) {
  const setAt = (i: number, s: Partial<Subcontractor>) => onChange(value.map((x, j) => (j === i ? { ...x, ...s } : x)));
  const identified = value.filter((s) => s.identifier?.value).length;
  return (
    <ProfileSection
      id="subcontractors"
      title="Subcontractors"
      register="Templates B_05.01 and B_05.02: a subcontractor with an identification code is reported at rank 2 of the supply chain"
      action={
        canEdit && (
          <Button size="sm" icon={<Plus size={14} aria-hidden="true" />} onClick={() => onChange([...value, { name: '' }])}>
            Add a subcontractor
          </Button>
        )
      }
    >
      {value.length === 0 ? (
        <p className="muted">No subcontractor recorded. Drafting from the vendor's documents proposes those its subprocessor lists name.</p>
      ) : (
        <p className="muted small">
          {identified} of {value.length} identified: only those are in the package.
        </p>
      )}
      <ol className={styles.subs} aria-label="Subcontractors">
        {value.map((s, i) => {
          const p = `subcontractors.${i}`;
          const lei = s.identifier?.type === 'LEI' && s.identifier.value ? leiProblem(s.identifier.value) : undefined;
          return (
            <li key={i} className={styles.sub} aria-label={s.name || `Subcontractor ${i + 1}`}>
              <ProfileField path={`${p}.name`} label="Name">
                {(c) => <input {...c} value={s.name} maxLength={300} onChange={(e) => setAt(i, { name: e.target.value })} />}
              </ProfileField>
              <ProfileField path={`${p}.country`} label="Country">
                {(c) => <Select c={c} value={s.country ?? ''} options={COUNTRY_OPTIONS} onChange={(v) => setAt(i, { country: v || undefined })} />}
              </ProfileField>
              <ProfileField path={`${p}.identifier.type`} label="Type of code">
                {(c) => (
                  <Select
                    c={c}
                    value={s.identifier?.type ?? ''}
                    options={IDENTIFIER_TYPES}
                    onChange={(v) => setAt(i, { identifier: v ? { type: v, value: s.identifier?.value ?? '' } : undefined })}
                  />
                )}
              </ProfileField>
              <ProfileField path={`${p}.identifier.value`} label="Identification code" problem={lei} errorAlso={[`${p}.identifier`]}>
                {(c) => (
                  <input
                    {...c}
                    value={s.identifier?.value ?? ''}
                    maxLength={100}
                    autoComplete="off"
                    spellCheck={false}
                    style={{ fontFamily: 'var(--mono)' }}
                    onChange={(e) => {
                      const type = s.identifier?.type ?? 'LEI';
                      const v = type === 'LEI' ? e.target.value.toUpperCase() : e.target.value;
                      setAt(i, { identifier: v ? { type, value: v } : undefined });
                    }}
                  />
                )}
              </ProfileField>
              {canEdit && (
                <Button
                  size="sm"
                  variant="ghost"
                  className={styles.subRemove}
                  icon={<Trash2 size={14} aria-hidden="true" />}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                  aria-label={`Remove subcontractor ${s.name || i + 1}`}
                >
                  Remove
                </Button>
              )}
            </li>
          );
        })}
      </ol>
    </ProfileSection>
  );
}
