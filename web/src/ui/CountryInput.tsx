import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { countryLabel } from '../profile/codes';
import { countryFromText, countryMatches } from './countries';

/**
 * A country picked from the list with type-ahead by name (an ARIA combobox): typing "Ger" offers
 * Germany first; Enter or a click picks; arrows move; what is typed must be a country of the list.
 * `value` is the ISO code ('' for none).
 */
export function CountryInput({
  label,
  value,
  onChange,
  hint,
  id,
  required,
  onValidity,
}: {
  label: string;
  value: string;
  onChange: (code: string) => void;
  hint?: string;
  id?: string;
  required?: boolean;
  /** Told whether what is typed is a country (a form does not send a country it could not read). */
  onValidity?: (valid: boolean) => void;
}) {
  const auto = useId();
  const inputId = id ?? auto;
  const listId = `${inputId}-list`;
  const [text, setText] = useState(value ? countryLabel(value) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => setText(value ? countryLabel(value) : ''), [value]);
  // Nothing typed yet (or the picked country's label): the whole list; else the matches.
  const options = useMemo(() => {
    const typed = open && text !== (value ? countryLabel(value) : '') ? text : '';
    return countryMatches(typed, typed ? 50 : 300);
  }, [open, text, value]);
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const pick = (code: string) => {
    onChange(code);
    setText(code ? countryLabel(code) : '');
    setOpen(false);
    setError(null);
    onValidity?.(true);
  };
  const settle = () => {
    if (!text.trim()) return pick('');
    const code = countryFromText(text);
    if (code) return pick(code);
    setOpen(false);
    setError(`“${text.trim()}” is not a country of the list: pick one, e.g. Germany`);
    onValidity?.(false);
  };
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="field combo">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${options[active].value}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        autoComplete="off"
        required={required}
        value={text}
        placeholder="Type a country name…"
        onChange={(e) => {
          const typed = e.target.value;
          const exact = countryFromText(typed);
          setText(typed);
          // A whole name typed ("Germany") is the pick: the list closes and the country is kept.
          if (exact && countryMatches(typed, 2).length === 1) {
            onChange(exact);
            setOpen(false);
          } else setOpen(true);
          setActive(0);
          setError(null);
          onValidity?.(!typed.trim() || !!exact);
        }}
        onFocus={(e) => e.target.select()}
        onClick={() => setOpen(true)}
        onBlur={() => settle()}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            if (!open) setOpen(true);
            else setActive((a) => Math.min(a + 1, options.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter') {
            if (open && options[active]) {
              e.preventDefault();
              pick(options[active].value);
            } else if (text.trim() && !countryFromText(text)) {
              e.preventDefault();
              settle();
            } else settle();
          } else if (e.key === 'Escape' && open) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      {open && options.length > 0 && (
        <ul id={listId} ref={list} role="listbox" aria-label={`${label}: countries`} className="combo-list">
          {options.map((o, i) => (
            <li
              key={o.value}
              id={`${listId}-${o.value}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              // Picked before the input's blur settles what was typed.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o.value);
              }}
            >
              {o.label}
            </li>
          ))}
        </ul>
      )}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
