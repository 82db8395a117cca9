import { createContext, useContext, useId, type ReactNode } from 'react';
import styles from './Profile.module.css';

/**
 * Extra content shown beside a profile field, keyed by the field's path in the profile
 * (`legalName`, `identifier.value`, `contracts.0.startDate`). Empty today; a feature that
 * proposes values (for example drafted from the vendor's documents, with their source) plugs
 * in here by providing this context around the form, without changing the form itself.
 */
export type FieldExtras = (path: string) => ReactNode;
export const ProfileFieldExtras = createContext<FieldExtras>(() => null);

/**
 * The form's draft, for content beside a field: read the current value of a path and set it
 * (the change is saved with the rest of the form). Paths as in `ProfileField`.
 */
export interface ProfileDraftApi {
  get(path: string): unknown;
  set(path: string, value: unknown): void;
}
export const ProfileDraft = createContext<ProfileDraftApi>({ get: () => undefined, set: () => {} });

/** Reads a dotted path (`contracts.0.startDate`) of an object. */
export function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}
/** A copy of `obj` with `path` set (arrays where the next key is a number). */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const [k, ...rest] = path.split('.');
  const src = (obj ?? {}) as Record<string, unknown> | unknown[];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(src) ? [...src] : { ...src };
  const child = (src as Record<string, unknown>)[k!];
  const next = rest.length ? setPath(child ?? (/^\d+$/.test(rest[0]!) ? [] : {}), rest.join('.'), value) : value;
  (copy as Record<string, unknown>)[k!] = next;
  return copy as T;
}

/** The API's messages for each profile path (`vendorProfile.<path>: <problem>` details). */
export const ProfileErrors = createContext<Map<string, string[]>>(new Map());

/** Errors of one path, and of paths below it (an error on `identifier` shows at its value). */
function errorsFor(errors: Map<string, string[]>, path: string, also: string[] = []): string[] {
  const out: string[] = [];
  for (const [k, msgs] of errors) if (k === path || k.startsWith(`${path}.`) || also.includes(k)) out.push(...msgs);
  return out;
}

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * One field of the vendor profile: label, control, hint, live problem and the API's errors,
 * and a slot for extra content beside it. `id="field-<path>"` is the anchor the register's
 * to-do list links to (`/vendors/:slug/profile#<path>`).
 */
export function ProfileField({
  path,
  label,
  hint,
  problem,
  errorAlso,
  wide,
  children,
}: {
  path: string;
  label: string;
  hint?: ReactNode;
  /** A problem found in the browser (e.g. LEI check digits), shown at once. */
  problem?: string | null;
  /** Error paths of the API that also belong here. */
  errorAlso?: string[];
  wide?: boolean;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const extras = useContext(ProfileFieldExtras)(path);
  const errors = errorsFor(useContext(ProfileErrors), path, errorAlso);
  const msgs = [...(problem ? [problem] : []), ...errors];
  const hintId = hint ? `${id}-hint` : undefined;
  const errId = msgs.length ? `${id}-err` : undefined;
  return (
    <div className={`${styles.row}${wide ? ` ${styles.wide}` : ''}`} id={`field-${path}`} data-field={path}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {children({ id, 'aria-describedby': [hintId, errId].filter(Boolean).join(' ') || undefined, 'aria-invalid': msgs.length ? true : undefined })}
        {hint && (
          <p id={hintId} className="field-hint">
            {hint}
          </p>
        )}
        {msgs.length > 0 && (
          <div id={errId} className="field-error" role="alert">
            {msgs.map((m) => (
              <p key={m} className={styles.errorLine}>
                {m}
              </p>
            ))}
          </div>
        )}
      </div>
      {extras && <div className={styles.extra}>{extras}</div>}
    </div>
  );
}

/** A titled group of fields, as the register groups them (with the templates it feeds). */
export function ProfileSection({
  id,
  title,
  register,
  children,
  action,
}: {
  id: string;
  title: string;
  register: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="card" id={`section-${id}`} aria-labelledby={`section-${id}-title`}>
      <header className={styles.sectionHead}>
        <div>
          <h2 id={`section-${id}-title`}>{title}</h2>
          <p className="muted small">{register}</p>
        </div>
        {action}
      </header>
      {children}
    </section>
  );
}
