import { useQuery } from '@tanstack/react-query';
import { ExternalLink, FileDown } from 'lucide-react';
import { createContext, Fragment, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { get, messageOf } from '../api/client';
import { openApiFile } from '../api/files';
import type { ApiData } from '../api/types';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { reflowQuote } from '../ui/reflow';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { locate, type Span } from './locate';
import styles from './Viewer.module.css';

/**
 * The one document viewer of the dashboard (docs/dashboard.md, "The document viewer"): every
 * "open" of a passage (an answer's source, an assessment's evidence, a draft's evidence, a
 * questionnaire's pre-fill) opens the document as text at that passage, highlighted, with the
 * original one click away.
 */
export interface ViewerTarget {
  /** Workspace slug (`X-Workspace-Id`). */
  ws: string;
  /** A document of the workspace or of the DORA corpus (GET /documents/:id), or one an assessment keeps. */
  source: { kind: 'document'; documentId: string; chunkId?: string | null } | { kind: 'assessment'; assessmentId: string; documentId: string };
  title: string;
  section?: string | null;
  page?: string | number | null;
  /** The passage as the screen showed it (a quote, a stored source): highlighted in the document. */
  passage?: string | null;
}

type DocumentText = ApiData<'getDocumentText'>['document'];
type AssessmentDocument = ApiData<'getAssessmentDocument'>['document'];
type Block = DocumentText['blocks'][number] | AssessmentDocument['blocks'][number];

/** What the viewer shows of either kind of document. */
interface ViewerDocument {
  title: string;
  blocks: Block[];
  /** The passage the server names (a chunk), when asked. */
  passage: string | null;
  file: { url: string; filename: string } | null;
  link: string | null;
  /** Why there is no original to open, when there is none. */
  note: string | null;
}

async function load(t: ViewerTarget): Promise<ViewerDocument> {
  if (t.source.kind === 'document') {
    const { document: d } = await get<ApiData<'getDocumentText'>>(`/documents/${encodeURIComponent(t.source.documentId)}`, {
      workspace: t.ws,
      query: { chunk: t.source.chunkId ?? undefined },
    });
    return {
      title: d.title,
      blocks: d.blocks,
      passage: d.passage?.content ?? null,
      file: d.file,
      link: d.link,
      note: d.file || d.link ? null : d.kind === 'mcp' ? 'This document comes from an MCP source: its original stays with that server.' : null,
    };
  }
  const { document: d } = await get<ApiData<'getAssessmentDocument'>>(
    `/assessments/${encodeURIComponent(t.source.assessmentId)}/documents/${encodeURIComponent(t.source.documentId)}`,
    { workspace: t.ws },
  );
  return {
    title: d.title ?? d.filename,
    blocks: d.blocks,
    passage: null,
    file: d.original,
    link: null,
    note: d.original ? null : `The assessment keeps the text of ${d.filename}, not the file, and the vendor's documents hold no copy of it.`,
  };
}

function useViewerDocument(t: ViewerTarget | null) {
  const key = t ? [t.ws, t.source.kind, t.source.documentId, t.source.kind === 'document' ? (t.source.chunkId ?? '') : t.source.assessmentId] : [];
  return useQuery({ queryKey: ['viewer', ...key], enabled: !!t, staleTime: 5 * 60_000, queryFn: () => load(t!) });
}

const ViewerContext = createContext<{ open(t: ViewerTarget, onClose?: () => void): void } | null>(null);

/** Holds the viewer (one for the whole signed-in app); `useDocumentViewer().open(target)` shows it. */
export function ViewerProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ target: ViewerTarget; onClose?: () => void } | null>(null);
  const open = useCallback((target: ViewerTarget, onClose?: () => void) => setState({ target, onClose }), []);
  const value = useMemo(() => ({ open }), [open]);
  return (
    <ViewerContext.Provider value={value}>
      {children}
      <DocumentViewer
        target={state?.target ?? null}
        onClose={() => {
          state?.onClose?.();
          setState(null);
        }}
      />
    </ViewerContext.Provider>
  );
}

export function useDocumentViewer() {
  const ctx = useContext(ViewerContext);
  if (!ctx) throw new Error('useDocumentViewer needs a ViewerProvider');
  return ctx;
}

/** A button that opens the viewer at a passage (the label says what it opens). */
export function OpenPassage({ target, children, className }: { target: ViewerTarget; children: ReactNode; className?: string }) {
  const viewer = useDocumentViewer();
  return (
    <button type="button" className={className ?? 'link-button small'} onClick={() => viewer.open(target)}>
      {children}
    </button>
  );
}

function DocumentViewer({ target, onClose }: { target: ViewerTarget | null; onClose: () => void }) {
  const doc = useViewerDocument(target);
  const toast = useToast();
  const scroller = useRef<HTMLDivElement>(null);
  // What is shown: each block's text with the source's hard line breaks reflowed (the highlight is found in it).
  const texts = useMemo(() => doc.data?.blocks.map((b) => reflowQuote(b.text)) ?? [], [doc.data]);
  const wanted = doc.data?.passage ?? target?.passage ?? '';
  const span = useMemo(() => (texts.length && wanted ? locate(texts, wanted) : null), [texts, wanted]);
  useEffect(() => {
    if (!span) return;
    // After paint: the dialog is open and laid out.
    const id = requestAnimationFrame(() => {
      const hit = scroller.current?.querySelector<HTMLElement>('mark[data-hit]');
      hit?.scrollIntoView({ block: 'center' });
    });
    return () => cancelAnimationFrame(id);
  }, [span]);
  const where = [target?.section, target?.page ? `page ${target.page}` : ''].filter(Boolean).join(' · ');
  return (
    <Dialog open={!!target} onClose={onClose} title={target?.title || doc.data?.title || 'Document'} wide className="dialog-viewer">
      {!target ? null : doc.isPending ? (
        <Loading label="Opening the document…" />
      ) : doc.isError ? (
        <>
          <ErrorMessage error={doc.error} title="The document could not be opened" />
          {target.passage && (
            <figure className={styles.fallback}>
              <figcaption className="small muted">The passage as quoted:</figcaption>
              <blockquote className="quote">{reflowQuote(target.passage)}</blockquote>
            </figure>
          )}
        </>
      ) : (
        <div className={styles.viewer}>
          <div className={styles.bar}>
            <p className="small muted">
              {where ? `${where}. ` : ''}
              {span ? 'The passage is highlighted.' : ''}
            </p>
            <div className={styles.actions}>
              {doc.data.file && (
                <Button
                  size="sm"
                  icon={<FileDown size={14} aria-hidden="true" />}
                  onClick={() => openApiFile(doc.data.file!.url, target.ws, doc.data.file!.filename).catch((err) => toast.show(messageOf(err), 'error'))}
                >
                  Open the original file<span className="visually-hidden">: {doc.data.file.filename}</span>
                </Button>
              )}
              {doc.data.link && (
                <a className="btn btn-secondary btn-sm" href={doc.data.link} target="_blank" rel="noopener noreferrer">
                  <ExternalLink size={14} aria-hidden="true" /> Open the source page
                </a>
              )}
            </div>
          </div>
          {doc.data.note && <p className="small muted">{doc.data.note}</p>}
          {!span && wanted && (
            <Alert tone="warning" title="The passage is not in the document as it reads now">
              <p className="alert-text">It may have been edited or re-indexed since. As quoted:</p>
              <blockquote className="quote">{reflowQuote(wanted)}</blockquote>
            </Alert>
          )}
          <div ref={scroller} className={styles.text} tabIndex={0} role="document" aria-label={`Text of ${doc.data.title}`}>
            <Blocks blocks={doc.data.blocks} texts={texts} span={span} />
          </div>
        </div>
      )}
    </Dialog>
  );
}

function Blocks({ blocks, texts, span }: { blocks: Block[]; texts: string[]; span: Span | null }) {
  return (
    <>
      {blocks.map((b, i) => {
        const prev = blocks[i - 1];
        // The headings that start here: those that differ from the block before.
        let same = 0;
        while (prev && same < b.headings.length && prev.headings[same] === b.headings[same]) same++;
        const fresh = b.headings.slice(same);
        const text = texts[i]!;
        const inSpan = span && i >= span.start.block && i <= span.end.block;
        const from = inSpan && i === span.start.block ? span.start.offset : 0;
        const to = inSpan && i === span.end.block ? Math.min(span.end.offset, text.length) : text.length;
        return (
          <Fragment key={i}>
            {b.page !== null && b.page !== (prev?.page ?? null) && i > 0 && <p className={styles.page}>Page {b.page}</p>}
            {fresh.map((h, k) => {
              const level = same + k;
              const Tag = level === 0 ? 'h3' : level === 1 ? 'h4' : 'h5';
              return (
                <Tag key={k} className={styles[`h${Math.min(level, 2)}`]}>
                  {h}
                </Tag>
              );
            })}
            <p className={`${styles.block}${inSpan ? ` ${styles.hitBlock}` : ''}`}>
              {inSpan ? (
                <>
                  {text.slice(0, from)}
                  <mark className={styles.hit} data-hit={i === span.start.block ? '' : undefined}>
                    {text.slice(from, to)}
                  </mark>
                  {text.slice(to)}
                </>
              ) : (
                text
              )}
            </p>
          </Fragment>
        );
      })}
    </>
  );
}
