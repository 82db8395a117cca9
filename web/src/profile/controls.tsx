import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { COUNTRY_OPTIONS, countryLabel } from './codes';
import type { ControlProps } from './ProfileField';
import styles from './Profile.module.css';

/** The controls of the vendor profile's fields (the profile form and the contract form). */

/** A select over a code list: `onChange` gets one of the options' values, or '' for "not set". */
export function Select<V extends string>({
  c,
  value,
  options,
  onChange,
  emptyLabel = 'Not set',
  disabled,
  required,
}: {
  c: ControlProps;
  value: string;
  options: readonly { value: V; label: string }[];
  onChange: (v: V | '') => void;
  emptyLabel?: string;
  disabled?: boolean;
  required?: boolean;
}) {
  return (
    <select {...c} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as V | '')}>
      {!required && <option value="">{emptyLabel}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function YesNo({
  c,
  value,
  onChange,
  disabled,
}: {
  c: ControlProps;
  value: boolean | undefined;
  onChange: (v: boolean | undefined) => void;
  disabled?: boolean;
}) {
  return (
    <select
      {...c}
      value={value === undefined ? '' : value ? 'yes' : 'no'}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'yes')}
    >
      <option value="">Not set</option>
      <option value="yes">Yes</option>
      <option value="no">No</option>
    </select>
  );
}

export function NumberInput({
  c,
  value,
  onChange,
  min,
  max,
  step,
}: {
  c: ControlProps;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  min?: number;
  max?: number;
  step?: string;
}) {
  return (
    <input
      {...c}
      type="number"
      inputMode="decimal"
      min={min}
      max={max}
      step={step ?? '1'}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' || Number.isNaN(e.target.valueAsNumber) ? undefined : e.target.valueAsNumber)}
    />
  );
}

/** Several countries: the chosen ones as removable chips, a select to add one. */
export function Countries({
  c,
  value,
  onChange,
  disabled,
}: {
  c: ControlProps;
  value: string[];
  onChange: (v: string[]) => void;
  disabled?: boolean;
}): ReactNode {
  return (
    <div>
      {value.length > 0 && (
        <ul className={styles.chips} aria-label="Chosen countries">
          {value.map((code) => (
            <li key={code} className={styles.chip}>
              {countryLabel(code)}
              <button type="button" aria-label={`Remove ${countryLabel(code)}`} disabled={disabled} onClick={() => onChange(value.filter((x) => x !== code))}>
                <X size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <select {...c} value="" disabled={disabled} onChange={(e) => e.target.value && onChange([...value, e.target.value])}>
        <option value="">{value.length ? 'Add another country…' : 'Add a country…'}</option>
        {COUNTRY_OPTIONS.filter((o) => !value.includes(o.value)).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
