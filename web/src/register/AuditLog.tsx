import { useAudit } from './api';
import styles from './Register.module.css';

const KIND: Record<string, string> = { entity: 'Entity', function: 'Function', fx_rate: 'Exchange rate' };

/** The latest changes of the entity settings, functions and exchange rates: who, when, old and new value. */
export function AuditLog() {
  const audit = useAudit();
  const entries = audit.data ?? [];
  return (
    <section className="card" aria-labelledby="audit-title">
      <details>
        <summary>
          <h2 id="audit-title" className={styles.inlineHeading}>
            Change history
          </h2>{' '}
          <span className="muted small">({entries.length ? `latest ${entries.length}` : 'no change yet'})</span>
        </summary>
        {entries.length > 0 && (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Latest changes of the register's records</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td>{new Date(e.changedAt).toLocaleString()}</td>
                    <td>{e.changedBy?.name ?? 'A former member'}</td>
                    <td>
                      {KIND[e.kind]} {e.subject === 'entity' ? '' : e.subject}: {e.field}
                    </td>
                    <td>{e.oldValue ?? <span className="muted">empty</span>}</td>
                    <td>{e.newValue ?? <span className="muted">empty</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </section>
  );
}
