import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import type { Validation } from '../api/types';
import styles from './Ask.module.css';

/** The answer's validation in plain words (docs/rag.md, "Validation"), with an icon per verdict. */
export function ValidationSummary({ v }: { v: Validation }) {
  const level = v.confidence >= 0.7 ? 'High' : v.confidence >= 0.4 ? 'Medium' : 'Low';
  const verdict = v.hasHallucinations
    ? { Icon: XCircle, tone: 'bad', text: 'Contains statements the sources do not support' }
    : v.isGrounded
      ? { Icon: CheckCircle2, tone: 'good', text: 'Grounded in the cited sources' }
      : { Icon: AlertTriangle, tone: 'warn', text: 'Not fully supported by the sources' };
  return (
    <div className={`${styles.validation} ${styles[verdict.tone]}`}>
      <p className={styles.verdict}>
        <verdict.Icon size={16} aria-hidden="true" />
        <strong>{verdict.text}.</strong>{' '}
        <span>
          {level} confidence ({Math.round(v.confidence * 100)}%).
        </span>
        {!v.isRelevant && <span> The sources may not be about this question.</span>}
      </p>
      {v.issues.length > 0 && (
        <details className={styles.issues}>
          <summary>{v.issues.length === 1 ? '1 issue found' : `${v.issues.length} issues found`}</summary>
          <ul>
            {v.issues.map((i, n) => (
              <li key={n}>{i}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
