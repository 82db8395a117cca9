import { BookOpen, ExternalLink } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { get, messageOf } from '../api/client';
import { openApiFile } from '../api/files';
import type { Source } from '../api/types';
import { Dialog } from '../ui/Dialog';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import styles from './Ask.module.css';

export type PanelSource = Source & { content?: string };

/**
 * The numbered sources of one answer beside the conversation: title, section, page, score; the
 * highlighted one (a clicked `[Source n]`) is scrolled to and shows its passage; each opens its
 * original document (an uploaded file, a DORA article, or the external link it was indexed with).
 */
export function SourcesPanel({
  sources,
  cited,
  highlighted,
  ws,
  panelKey,
}: {
  sources: PanelSource[];
  cited: number[];
  highlighted: number | null;
  ws: string;
  panelKey: string;
}) {
  const refs = useRef(new Map<number, HTMLLIElement>());
  const toast = useToast();
  const [article, setArticle] = useState<{ title: string; path: string } | null>(null);
  useEffect(() => {
    if (highlighted === null) return;
    const el = refs.current.get(highlighted);
    el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    el?.focus({ preventScroll: true });
  }, [highlighted, panelKey]);

  const open = (s: PanelSource) => {
    if (s.url.startsWith('/api/v1/compliance/articles/')) return setArticle({ title: s.title, path: s.url });
    if (s.url.startsWith('/api/v1/data-sources/') && s.url.includes('/files/')) {
      return void openApiFile(s.url, ws).catch((err) => toast.show(messageOf(err), 'error'));
    }
    if (/^https?:\/\//.test(s.url)) return void window.open(s.url, '_blank', 'noopener,noreferrer');
    toast.show('This source has no document to open', 'info');
  };

  return (
    <aside className={styles.sources} aria-labelledby="sources-h">
      <h2 id="sources-h" className={styles.sourcesTitle}>
        <BookOpen size={16} aria-hidden="true" /> Sources
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
                    <blockquote className={styles.passage} tabIndex={0} aria-label={`Passage of source ${s.sourceNumber}`}>
                      {s.content}
                    </blockquote>
                  ) : (
                    <p className="muted small">This answer was stored without its passage text; open the document to read it.</p>
                  ))}
                <button type="button" className={`link-button small ${styles.openDoc}`} onClick={() => open(s)}>
                  <ExternalLink size={13} aria-hidden="true" /> Open document<span className="visually-hidden">: {s.title}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <ArticleDialog article={article} onClose={() => setArticle(null)} />
    </aside>
  );
}

/** A DORA article cited as a source: its text from the compliance reference API. */
function ArticleDialog({ article, onClose }: { article: { title: string; path: string } | null; onClose: () => void }) {
  const [state, setState] = useState<{ text?: string; error?: string }>({});
  useEffect(() => {
    if (!article) return;
    setState({});
    get<{ article: { text: string } }>(article.path)
      .then((d) => setState({ text: d.article.text }))
      .catch((err) => setState({ error: messageOf(err) }));
  }, [article]);
  return (
    <Dialog open={!!article} onClose={onClose} title={article?.title ?? ''} wide>
      {state.error ? (
        <p role="alert">{state.error}</p>
      ) : state.text ? (
        <div className={styles.articleText} tabIndex={0}>
          {state.text}
        </div>
      ) : (
        <Loading label="Loading the article…" />
      )}
    </Dialog>
  );
}
