import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Archive,
  ArchiveRestore,
  ArrowDown,
  ChevronDown,
  FileJson,
  FileText,
  MessageSquarePlus,
  Pencil,
  SlidersHorizontal,
  Square,
  Trash2,
} from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { del, messageOf, patch } from '../api/client';
import type { AnswerMetadata, Conversation, Message, Source } from '../api/types';
import { useFillHeight, useMediaQuery } from '../lib/layout';
import { useTitle } from '../lib/useTitle';
import { Alert, ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { Field } from '../ui/Field';
import { formatDateTime, timeAgo } from '../ui/format';
import { Loading, Spinner } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { conversationKey, conversationsKey, downloadExport, useConversation, useConversations } from './api';
import { Markdown, type CiteProps } from './Markdown';
import { SourcesPanel, type PanelSource } from './SourcesPanel';
import { useAnswerStream, type Filters, type LiveAnswer } from './useAnswerStream';
import { ValidationSummary } from './ValidationSummary';
import styles from './Ask.module.css';

/** Which answer's sources the side panel shows, and which source is highlighted. */
interface Selection {
  key: string;
  n: number | null;
}

/** Closer than this to the bottom, the thread follows new text. */
const FOLLOW_PX = 64;

/**
 * Questions over the vendor's documents and DORA, with conversations, streaming and cited sources
 * (docs/dashboard.md, "Ask"). The thread fills the window below the vendor's header and follows
 * the newest answer unless the reader scrolled up; the Sources panel shows the sources of the
 * answer in view, or of the one selected. Below 1200 px the conversations fold into a menu; below
 * 900 px thread and sources stack.
 */
export default function AskTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const { conversationId } = useParams();
  useTitle(`${vendor.workspaceName} · Ask`);
  const ws = vendor.workspaceId;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const wide = useMediaQuery('(min-width: 1200px)');
  const stacked = !useMediaQuery('(min-width: 900px)');
  const [listStatus, setListStatus] = useState<'active' | 'archived'>('active');
  const list = useConversations(ws, listStatus);
  const convo = useConversation(ws, conversationId);
  const [selection, setSelection] = useState<Selection | null>(null);
  // Passage texts seen in streamed answers, by source id (stored messages keep sources without text).
  const passages = useRef(new Map<string, string>());
  const layout = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  // The tab fills the window below the vendor's header (stacked on a phone: the conversations' bar,
  // then the thread with its composer, both in view; the sources follow below).
  const height = useFillHeight(layout, { min: stacked ? 380 : 420, bottom: stacked ? 12 : 20 });

  const onSaved = useCallback(
    (id: string, a: LiveAnswer) => {
      a.sources.forEach((s) => s.content && passages.current.set(s.id, s.content));
      void qc.invalidateQueries({ queryKey: conversationsKey(ws) });
      void qc.invalidateQueries({ queryKey: conversationKey(ws, id) });
      if (id !== conversationId) navigate(`/vendors/${encodeURIComponent(ws)}/ask/${id}`, { replace: true, state: { keepAnswer: true } });
    },
    [qc, ws, conversationId, navigate],
  );
  const stream = useAnswerStream(ws, onSaved);
  const live = stream.answer;
  live?.sources.forEach((s) => s.content && passages.current.set(s.id, s.content));

  // Opening another conversation drops (and stops) an answer that belongs to a different one;
  // the answer that just created this conversation stays while its stored copy loads.
  useEffect(() => {
    if (stream.answer && stream.answer.conversationId !== conversationId) {
      stream.clear();
      setSelection(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId]);

  const messages = convo.data?.messages ?? [];
  const stored = live?.messageId && messages.some((m) => m.id === live.messageId);
  const showLive = live && !stored;
  const archived = convo.data?.conversation.status === 'archived';
  const answers = useMemo(() => messages.filter((m) => m.role === 'assistant'), [messages]);
  const newestKey = showLive ? 'live' : (answers.at(-1)?.id ?? null);

  // ---- The thread follows the newest answer, unless the reader scrolled up. ----
  const thread = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const [away, setAway] = useState(false);
  const toBottom = useCallback(() => {
    const el = thread.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);
  const onScroll = () => {
    const el = thread.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
    follow.current = near;
    if (near !== !away) setAway(!near);
  };
  // A conversation opens at its newest message.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another conversation opens
  useLayoutEffect(() => {
    follow.current = true;
    setAway(false);
  }, [conversationId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: what grows the thread (messages, streamed text, the window) is the trigger
  useLayoutEffect(() => {
    if (follow.current) toBottom();
  }, [messages.length, live?.text, live?.state, live?.validation, convo.data, toBottom, height]);

  // ---- The answer in view: its sources are the panel's. ----
  const visible = useRef(new Map<string, number>());
  const [inView, setInView] = useState<string | null>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers on screen change with these
  useEffect(() => {
    const root = thread.current;
    if (!root) return;
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const key = (e.target as HTMLElement).dataset.answer!;
          if (e.intersectionRatio > 0) visible.current.set(key, e.intersectionRect.height);
          else visible.current.delete(key);
        }
        // The answer that takes most of the thread's height; on a tie, the later one.
        let best: string | null = null;
        let bestH = -1;
        for (const el of root.querySelectorAll<HTMLElement>('[data-answer]')) {
          const h = visible.current.get(el.dataset.answer!) ?? -1;
          if (h >= 0 && h >= bestH) {
            best = el.dataset.answer!;
            bestH = h;
          }
        }
        setInView(best);
      },
      { root, threshold: [0, 0.1, 0.25, 0.5, 0.75, 1] },
    );
    observer.current = io;
    for (const el of root.querySelectorAll('[data-answer]')) io.observe(el);
    return () => {
      io.disconnect();
      observer.current = null;
      visible.current.clear();
    };
  }, [convo.data, showLive, conversationId]);
  const observe = useCallback((el: HTMLElement | null) => {
    if (el) observer.current?.observe(el);
  }, []);

  // The panel: the selected answer while it is in view, else the answer in view, else the newest.
  const selectedVisible = selection && (visible.current.has(selection.key) || selection.key === inView);
  const panelKey = (selectedVisible ? selection.key : null) ?? inView ?? newestKey;
  const panel = useMemo((): { key: string; sources: PanelSource[]; cited: number[] } | null => {
    const key = panelKey;
    if (!key) return null;
    if (key === 'live' && live)
      return {
        key,
        sources: live.sources.map((s) => ({ ...s, content: s.content ?? passages.current.get(s.id) })),
        cited: live.citedSources.map((c) => c.sourceNumber),
      };
    const m = messages.find((x) => x.id === key);
    if (!m) return null;
    return {
      key,
      sources: (m.metadata?.sources ?? []).map((s: Source) => ({ ...s, content: s.content ?? passages.current.get(s.id) })),
      cited: (m.metadata?.citedSources ?? []).map((c) => c.sourceNumber),
    };
  }, [panelKey, live, messages]);

  const cite = (key: string) => (c: CiteProps, k: string) =>
    c.valid ? (
      <a
        key={k}
        href={`#source-${key}-${c.n}`}
        className={`${styles.cite}${selection?.key === key && selection.n === c.n ? ` ${styles.citeActive}` : ''}`}
        onClick={(e) => {
          e.preventDefault();
          setSelection({ key, n: c.n });
        }}
        aria-label={`Source ${c.n}`}
      >
        [Source {c.n}]
      </a>
    ) : (
      <span key={k} className={styles.citeInvalid} title="This marker names no retrieved source">
        [Source {c.n}]
      </span>
    );

  const newConversation = () => {
    stream.clear();
    setSelection(null);
    navigate(`/vendors/${encodeURIComponent(ws)}/ask`);
  };
  const conversations = (
    <ConversationList ws={ws} status={listStatus} onStatus={setListStatus} list={list} activeId={conversationId} onNew={wide ? newConversation : undefined} />
  );

  return (
    <div
      ref={layout}
      className={`${styles.layout}${wide ? '' : ` ${styles.narrow}`}${stacked ? ` ${styles.stacked}` : ''}`}
      style={{ ['--ask-h' as string]: height ? `${height}px` : undefined }}
    >
      {wide ? (
        conversations
      ) : (
        <ConversationMenu list={list} activeId={conversationId} onNew={newConversation} title={convo.data?.conversation.title}>
          {conversations}
        </ConversationMenu>
      )}

      <section ref={section} className={styles.thread} aria-label="Conversation">
        {conversationId && convo.isPending ? (
          <Loading label="Loading the conversation…" />
        ) : conversationId && convo.isError ? (
          <ErrorMessage error={convo.error} title="This conversation could not be opened" onRetry={() => convo.refetch()} />
        ) : (
          <>
            {convo.data && <ThreadHeader ws={ws} conversation={convo.data.conversation} />}
            <div className={styles.messagesWrap}>
              <div
                ref={thread}
                className={styles.messages}
                role="log"
                aria-label="Messages"
                aria-live="polite"
                aria-busy={stream.streaming}
                tabIndex={0}
                onScroll={onScroll}
              >
                {!conversationId && !showLive && (
                  <EmptyState title={`Ask about ${vendor.workspaceName}`}>
                    <p>
                      Questions are answered from this vendor’s documents and the DORA text, with numbered sources. For example: “What uptime does the SLA
                      commit to?” or “How are security incidents reported?”
                    </p>
                  </EmptyState>
                )}
                {messages.map((m) => (
                  <MessageView
                    key={m.id}
                    m={m}
                    observe={observe}
                    selected={panel?.key === m.id}
                    onSelect={() => setSelection({ key: m.id, n: null })}
                    cite={cite(m.id)}
                  />
                ))}
                {showLive && (
                  <LiveView
                    a={live}
                    observe={observe}
                    cite={cite('live')}
                    selected={panel?.key === 'live'}
                    onSelect={() => setSelection({ key: 'live', n: null })}
                  />
                )}
              </div>
              {away && (
                <button
                  type="button"
                  className={`btn btn-secondary btn-sm ${styles.jump}`}
                  onClick={() => {
                    follow.current = true;
                    setAway(false);
                    toBottom();
                  }}
                >
                  <ArrowDown size={14} aria-hidden="true" /> {stream.streaming ? 'Follow the answer' : 'Newest message'}
                </button>
              )}
            </div>
            {archived ? (
              <ArchivedNotice ws={ws} conversation={convo.data!.conversation} />
            ) : vendor.permissions.canQuery ? (
              <Composer
                streaming={stream.streaming}
                onAsk={(q, f) => {
                  setSelection(null);
                  // Asking is wanting to read the answer: the thread follows it (on a phone, the page too).
                  follow.current = true;
                  setAway(false);
                  if (stacked) section.current?.scrollIntoView({ block: 'end' });
                  void stream.ask(q, conversationId, f);
                }}
                onStop={stream.stop}
              />
            ) : (
              <Alert tone="info">You can read conversations but not ask questions in this vendor (no query permission).</Alert>
            )}
          </>
        )}
      </section>

      <SourcesPanel
        sources={panel?.sources ?? []}
        cited={panel?.cited ?? []}
        highlighted={panel && selection?.key === panel.key ? selection.n : null}
        ws={ws}
        panelKey={panel?.key ?? ''}
        label={panel ? (panel.key === newestKey ? 'of the newest answer' : 'of the answer in view') : ''}
      />
    </div>
  );
}

/** Below 1200 px: the conversations behind one button above the thread (the list opens under it). */
function ConversationMenu({
  list,
  activeId,
  onNew,
  title,
  children,
}: {
  list: ReturnType<typeof useConversations>;
  activeId?: string;
  onNew: () => void;
  title?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a conversation picked closes the menu
  useEffect(() => setOpen(false), [activeId]);
  const count = list.data?.conversations.length;
  return (
    <div className={styles.convMenu}>
      <div className={styles.convBar}>
        <button type="button" className="btn btn-secondary btn-sm" aria-expanded={open} aria-controls="ask-conversations" onClick={() => setOpen(!open)}>
          Conversations{count !== undefined ? ` (${count})` : ''} <ChevronDown size={14} aria-hidden="true" />
        </button>
        <span className={`muted small ${styles.convCurrent}`}>{title ?? ''}</span>
        <Button size="sm" variant="primary" icon={<MessageSquarePlus size={14} aria-hidden="true" />} onClick={onNew}>
          New
          <span className="visually-hidden"> conversation</span>
        </Button>
      </div>
      {open && (
        <div id="ask-conversations" className={styles.convDrop}>
          {children}
        </div>
      )}
    </div>
  );
}

function ConversationList({
  ws,
  status,
  onStatus,
  list,
  activeId,
  onNew,
}: {
  ws: string;
  status: 'active' | 'archived';
  onStatus: (s: 'active' | 'archived') => void;
  list: ReturnType<typeof useConversations>;
  activeId?: string;
  /** The "New conversation" button (the narrow layout has its own, above the thread). */
  onNew?: () => void;
}) {
  return (
    <nav className={styles.side} aria-label="Conversations">
      {onNew && (
        <Button variant="primary" icon={<MessageSquarePlus size={16} aria-hidden="true" />} onClick={onNew} className="btn-block">
          New conversation
        </Button>
      )}
      <div className={styles.seg} role="group" aria-label="Show conversations">
        <button type="button" aria-pressed={status === 'active'} onClick={() => onStatus('active')}>
          Active
        </button>
        <button type="button" aria-pressed={status === 'archived'} onClick={() => onStatus('archived')}>
          Archived
        </button>
      </div>
      {list.isPending ? (
        <Loading inline label="Loading…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.conversations.length === 0 ? (
        <p className="muted small">{status === 'active' ? 'No conversations yet.' : 'No archived conversations.'}</p>
      ) : (
        <ul className={styles.convList}>
          {list.data.conversations.map((c) => (
            <li key={c.id}>
              <Link
                to={`/vendors/${encodeURIComponent(ws)}/ask/${c.id}`}
                className={`${styles.convItem}${c.id === activeId ? ` ${styles.convActive}` : ''}`}
                aria-current={c.id === activeId ? 'page' : undefined}
              >
                <span className={styles.convTitle}>{c.title}</span>
                <span className="muted small">
                  {c.messageCount} messages · <time dateTime={c.lastMessageAt}>{timeAgo(c.lastMessageAt)}</time>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

function ThreadHeader({ ws, conversation: c }: { ws: string; conversation: Conversation }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [title, setTitle] = useState(c.title);
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: conversationsKey(ws) });
    await qc.invalidateQueries({ queryKey: conversationKey(ws, c.id) });
  };
  const rename = useMutation({
    mutationFn: () => patch(`/conversations/${c.id}`, { title: title.trim() }, { workspace: ws }),
    onSuccess: async () => {
      await refresh();
      setRenaming(false);
      toast.show('Conversation renamed', 'success');
    },
  });
  const setStatus = useMutation({
    mutationFn: (status: 'active' | 'archived') => patch(`/conversations/${c.id}`, { status }, { workspace: ws }),
    onSuccess: async (_d, status) => {
      await refresh();
      toast.show(status === 'archived' ? 'Conversation archived' : 'Conversation restored', 'success');
    },
    onError: (err) => toast.show(messageOf(err), 'error'),
  });
  const remove = useMutation({
    mutationFn: () => del(`/conversations/${c.id}`, { workspace: ws }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: conversationsKey(ws) });
      toast.show('Conversation deleted', 'success');
      navigate(`/vendors/${encodeURIComponent(ws)}/ask`, { replace: true });
    },
  });
  const exp = (format: 'json' | 'markdown') => downloadExport(ws, c, format).catch((err) => toast.show(messageOf(err), 'error'));
  // One line: the title (its start date on hover and for screen readers) and five icon actions, named.
  const action = (label: string, icon: ReactNode, onClick: () => void, busy?: boolean) => (
    <button
      type="button"
      className={`icon-btn ${styles.action}`}
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={busy}
      aria-busy={busy || undefined}
    >
      {busy ? <Spinner size={14} /> : icon}
    </button>
  );
  return (
    <header className={styles.threadHeader}>
      <div className={styles.threadTitle}>
        <h2 title={c.title}>{c.title}</h2>
        <span className="muted small">
          <span className={styles.started}>Started </span>
          <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
          {c.status === 'archived' ? ' · archived' : ''}
        </span>
      </div>
      <div className={styles.threadActions} role="group" aria-label="Conversation actions">
        {action('Rename', <Pencil size={16} aria-hidden="true" />, () => {
          setTitle(c.title);
          setRenaming(true);
        })}
        {c.status === 'archived'
          ? action('Restore', <ArchiveRestore size={16} aria-hidden="true" />, () => setStatus.mutate('active'), setStatus.isPending)
          : action('Archive', <Archive size={16} aria-hidden="true" />, () => setStatus.mutate('archived'), setStatus.isPending)}
        {action('Export as Markdown', <FileText size={16} aria-hidden="true" />, () => exp('markdown'))}
        {action('Export as JSON', <FileJson size={16} aria-hidden="true" />, () => exp('json'))}
        {action('Delete', <Trash2 size={16} aria-hidden="true" />, () => setDeleting(true))}
      </div>
      <Dialog
        open={renaming}
        onClose={() => {
          rename.reset();
          setRenaming(false);
        }}
        title="Rename conversation"
      >
        <form
          className="form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            rename.mutate();
          }}
        >
          <Field label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} autoFocus />
          {rename.isError && <ErrorMessage error={rename.error} />}
          <div className="form-actions">
            <Button onClick={() => setRenaming(false)}>Cancel</Button>
            <Button type="submit" variant="primary" busy={rename.isPending} disabled={!title.trim()}>
              Save
            </Button>
          </div>
        </form>
      </Dialog>
      <Dialog
        open={deleting}
        onClose={() => {
          remove.reset();
          setDeleting(false);
        }}
        title="Delete this conversation?"
        footer={
          <>
            <Button onClick={() => setDeleting(false)}>Cancel</Button>
            <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate()}>
              Delete
            </Button>
          </>
        }
      >
        <p>
          “{c.title}” and its {c.messageCount} messages are deleted for good. Export it first to keep a copy.
        </p>
        {remove.isError && <ErrorMessage error={remove.error} />}
      </Dialog>
    </header>
  );
}

function ArchivedNotice({ ws, conversation: c }: { ws: string; conversation: Conversation }) {
  const qc = useQueryClient();
  const restore = useMutation({
    mutationFn: () => patch(`/conversations/${c.id}`, { status: 'active' }, { workspace: ws }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: conversationsKey(ws) });
      await qc.invalidateQueries({ queryKey: conversationKey(ws, c.id) });
    },
  });
  return (
    <Alert
      tone="info"
      title="This conversation is archived"
      action={
        <Button size="sm" busy={restore.isPending} onClick={() => restore.mutate()}>
          Restore to continue
        </Button>
      }
    >
      <p className="alert-text">Restore it to ask further questions in it.</p>
    </Alert>
  );
}

function MessageView({
  m,
  observe,
  selected,
  onSelect,
  cite,
}: {
  m: Message;
  observe: (el: HTMLElement | null) => void;
  selected: boolean;
  onSelect: () => void;
  cite: (c: CiteProps, k: string) => React.ReactNode;
}) {
  if (m.role === 'user') {
    return (
      <div className={styles.question}>
        <span className="visually-hidden">You asked:</span>
        {m.content}
      </div>
    );
  }
  const meta: Partial<AnswerMetadata> = m.metadata ?? {};
  return (
    <article ref={observe} data-answer={m.id} className={`${styles.answer}${selected ? ` ${styles.answerSelected}` : ''}`} aria-label="Answer">
      <Markdown text={m.content} sourceCount={meta.sources?.length ?? 0} cite={cite} />
      {meta.validation && <ValidationSummary v={meta.validation} />}
      <footer className={styles.answerFoot}>
        <time dateTime={m.timestamp}>{formatDateTime(m.timestamp)}</time>
        {typeof meta.totalTime === 'number' && <span>· {(meta.totalTime / 1000).toFixed(1)} s</span>}
        {meta.generator && <span>· {meta.model ?? meta.generator}</span>}
        {(meta.sources?.length ?? 0) > 0 && !selected && (
          <button type="button" className="link-button small" onClick={onSelect}>
            Show its {meta.sources!.length} sources
          </button>
        )}
      </footer>
    </article>
  );
}

function LiveView({
  a,
  observe,
  cite,
  selected,
  onSelect,
}: {
  a: LiveAnswer;
  observe: (el: HTMLElement | null) => void;
  cite: (c: CiteProps, k: string) => React.ReactNode;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <>
      <div className={styles.question}>
        <span className="visually-hidden">You asked:</span>
        {a.question}
      </div>
      <article
        ref={observe}
        data-answer="live"
        className={`${styles.answer}${selected ? ` ${styles.answerSelected}` : ''}`}
        aria-label="Answer"
        aria-busy={a.state === 'streaming'}
      >
        {a.text ? <Markdown text={a.text} sourceCount={a.sources.length} cite={cite} /> : null}
        {a.state === 'streaming' && (
          <p className={styles.progress} role="status">
            <Spinner size={14} /> {a.status || 'Writing the answer'}…
          </p>
        )}
        {a.state === 'stopped' && <Alert tone="warning">Stopped. This answer was not saved.</Alert>}
        {a.state === 'error' && (
          <Alert tone="error" title="The answer failed">
            <p className="alert-text">{a.error}</p>
          </Alert>
        )}
        {a.validation && <ValidationSummary v={a.validation} />}
        {a.state === 'done' && (
          <footer className={styles.answerFoot}>
            {a.totalTime !== null && <span>{(a.totalTime / 1000).toFixed(1)} s</span>}
            {!selected && a.sources.length > 0 && (
              <button type="button" className="link-button small" onClick={onSelect}>
                Show its {a.sources.length} sources
              </button>
            )}
          </footer>
        )}
      </article>
    </>
  );
}

function Composer({ streaming, onAsk, onStop }: { streaming: boolean; onAsk: (q: string, f: Filters | undefined) => void; onStop: () => void }) {
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [section, setSection] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const filters: Filters | undefined =
    section.trim() || start || end
      ? {
          ...(section.trim() ? { section: section.trim() } : {}),
          ...(start || end ? { dateRange: { ...(start ? { start } : {}), ...(end ? { end } : {}) } } : {}),
        }
      : undefined;
  const submit = () => {
    const question = q.trim();
    if (!question || streaming) return;
    onAsk(question, filters);
    setQ('');
  };
  const activeCount = (section.trim() ? 1 : 0) + (start || end ? 1 : 0);
  return (
    <form
      className={styles.composer}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        submit();
      }}
    >
      {open && (
        <fieldset className={styles.filters}>
          <legend>Filters</legend>
          <Field
            label="Section"
            value={section}
            onChange={(e) => setSection(e.target.value)}
            placeholder="e.g. Uptime Guarantee"
            hint="Only passages of sections with this name."
          />
          <Field label="Documents dated from" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
          <Field label="Documents dated until" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setSection('');
              setStart('');
              setEnd('');
            }}
          >
            Clear filters
          </Button>
        </fieldset>
      )}
      <label htmlFor="question" className="visually-hidden">
        Your question
      </label>
      <span id="question-keys" className="visually-hidden">
        Enter sends the question; Shift+Enter starts a new line.
      </span>
      <textarea
        id="question"
        className={styles.input}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e: KeyboardEvent<HTMLTextAreaElement>) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
        placeholder="Ask a question about this vendor…"
        title="Enter sends the question; Shift+Enter starts a new line"
        aria-describedby="question-keys"
        rows={2}
        maxLength={5000}
      />
      <div className={styles.composerBar}>
        <Button size="sm" variant="ghost" icon={<SlidersHorizontal size={14} aria-hidden="true" />} aria-expanded={open} onClick={() => setOpen(!open)}>
          Filters{activeCount ? ` (${activeCount})` : ''}
        </Button>
        <span className="muted small">{q.length > 4500 ? `${q.length} / 5000` : ''}</span>
        {streaming ? (
          <Button variant="danger" icon={<Square size={14} aria-hidden="true" />} onClick={onStop}>
            Stop
          </Button>
        ) : (
          <Button type="submit" variant="primary" disabled={!q.trim()}>
            Ask
          </Button>
        )}
      </div>
    </form>
  );
}
