import { BookOpen, FileSearch } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { Source } from '../api/types';
import { reflowQuote } from '../ui/reflow';
import { useToast } from '../ui/Toasts';
import { useDocumentViewer } from '../viewer/DocumentViewer';
import styles from './Ask.module.css';

export type PanelSource = Source & { content?: string };

/**
 * The numbered sources of one answer beside the conversation (the answer in view, or the one
 * selected): title, section, page, score; the highlighted one (a clicked `[Source n]`) is scrolled
 * to and shows its passage; each opens its document in the viewer, at the passage, highlighted.
 */
export function SourcesPanel({
  sources,
  cited,
  highlighted,
  ws,
  panelKey,
  label,
}: {
  sources: PanelSource[];
  cited: number[];
  highlighted: number | null;
  ws: string;
  panelKey: string;
  /** Whose sources these are, in words ("of the answer in view"). */
  label: string;
}) {
  const refs = useRef(new Map<number, HTMLLIElement>());
  const toast = useToast();
  const viewer = useDocumentViewer();
  useEffect(() => {
    if (highlighted === null) return;
    const el = refs.current.get(highlighted);
    el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    el?.focus({ preventScroll: true });
  }, [highlighted, panelKey]);

  const open = (s: PanelSource) => {
    if (!s.documentId) return toast.show('This source has no document to open', 'info');
    viewer.open({
      ws,
      source: { kind: 'document', documentId: s.documentId, chunkId: s.id },
      title: s.title,
      section: s.section,
      page: s.page,
      passage: s.content,
    });
  };

  return (
    <aside className={styles.sources} aria-labelledby="sources-h">
      <h2 id="sources-h" className={styles.sourcesTitle}>
        <BookOpen size={16} aria-hidden="true" /> Sources {label && <span className={styles.sourcesOf}>{label}</span>}
      </h2>
      {sources.length === 0 ? (
        <p className="muted small">The sources of an answer appear here, numbered as in the answer.</p>
      ) : (
        <ol className={styles.sourceList}>
          {sources.map((s) => {
            const active = highlighted === s.sourceNumber;
            return (
              <li
                key={`${panelKey}-${s.sourceNumber}`}
                id={`source-${panelKey}-${s.sourceNumber}`}
                ref={(el) => {
                  if (el) refs.current.set(s.sourceNumber, el);
                  else refs.current.delete(s.sourceNumber);
                }}
                tabIndex={-1}
                className={`${styles.source}${active ? ` ${styles.sourceActive}` : ''}`}
                aria-current={active ? 'true' : undefined}
              >
                <div className={styles.sourceHead}>
                  <span className={styles.sourceNum}>{s.sourceNumber}</span>
                  <span className={styles.sourceTitle}>{s.title}</span>
                </div>
                <dl className={styles.sourceMeta}>
                  {s.section && (
                    <>
                      <dt>Section</dt>
                      <dd>{s.section}</dd>
                    </>
                  )}
                  {s.page ? (
                    <>
                      <dt>Page</dt>
                      <dd>{s.page}</dd>
                    </>
                  ) : null}
                  <dt>Relevance</dt>
                  <dd>{Math.round(s.score * 100)}%</dd>
                  <dt className="visually-hidden">Cited</dt>
                  <dd>{cited.includes(s.sourceNumber) ? 'cited in the answer' : 'retrieved, not cited'}</dd>
                </dl>
                {active &&
                  (s.content ? (
                    <blockquote className={`quote ${styles.passage}`} tabIndex={0} aria-label={`Passage of source ${s.sourceNumber}`}>
                      {reflowQuote(s.content)}
                    </blockquote>
                  ) : (
                    <p className="muted small">This answer was stored without its passage text; open the document to read it.</p>
                  ))}
                <button type="button" className={`link-button small ${styles.openDoc}`} onClick={() => open(s)}>
                  <FileSearch size={13} aria-hidden="true" /> Open at the passage<span className="visually-hidden">: {s.title}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </aside>
  );
}
