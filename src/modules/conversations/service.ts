import { AppError, badRequest, notFound } from '../../lib/errors.js';
import type { ConversationStatus } from '../../db/schema/index.js';
import { confidenceText, type AssistantMetadata } from '../../domain/answers.js';
import { reflowQuote } from '../../lib/reflow.js';
import { absoluteSourceLink, dashboardSourceLink } from '../../rag/links.js';
import type { HistoryTurn } from '../../rag/types.js';
import type { Scope } from '../../domain/scope.js';
import type { ConversationRow, ConversationsRepository, MessageRow, NewMessage, SortField } from './repository.js';
import { pagination, type Pagination } from '../../domain/paging.js';

export const DEFAULT_TITLE = 'New Conversation';
export const TITLE_MAX = 200;

export const conversationNotFound = () => notFound('Conversation not found', 'CONVERSATION_NOT_FOUND');

export function conversationView(c: ConversationRow) {
  return {
    id: c.id,
    title: c.title,
    messageCount: c.messageCount,
    lastMessageAt: c.lastMessageAt.toISOString(),
    status: c.status,
    createdAt: c.createdAt.toISOString(),
  };
}
export type ConversationView = ReturnType<typeof conversationView>;

export function messageView(m: MessageRow) {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    ...(m.role === 'assistant' && m.metadata ? { metadata: m.metadata } : {}),
    timestamp: m.createdAt.toISOString(),
  };
}
export type MessageView = ReturnType<typeof messageView>;

/** A title from the first question: its first line, cut at a word boundary. */
export function titleFromQuestion(question: string, max = 80): string {
  const line = question.trim().split(/\n/)[0].replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line || DEFAULT_TITLE;
  const cut = line.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return `${(at > max / 2 ? cut.slice(0, at) : cut).trimEnd()}…`;
}

const HEADING = /^## (User|Assistant)$/;

/** Where export links point: the service's public address and the conversation's workspace. */
export interface ExportContext {
  publicUrl: string;
  workspaceSlug: string;
}

/** A source of an exported answer: what it is, whether the answer cites it, where to read it, the passage quoted. */
export interface ExportedSource {
  sourceNumber: number;
  title: string;
  section: string;
  page: string | null;
  cited: boolean;
  /** The document opened at the passage in the dashboard (absolute, from PUBLIC_URL). */
  link: string;
  /** The internal source link (docs/rag.md), absolute. */
  apiLink: string;
  /** The passage as retrieved for this answer; null for answers stored before passages were kept. */
  passage: string | null;
}

/** What an export adds to an answer: its confidence in words and its sources with their passages. */
export function answerEvidence(meta: AssistantMetadata, ctx: ExportContext): { confidence: string; sources: ExportedSource[] } {
  const cited = new Set(meta.citedSources.map((c) => c.sourceNumber));
  return {
    confidence: confidenceText(meta.confidence),
    sources: meta.sources.map((s) => ({
      sourceNumber: s.sourceNumber,
      title: s.title,
      section: s.section,
      page: s.page,
      cited: cited.has(s.sourceNumber),
      link: dashboardSourceLink(ctx.publicUrl, ctx.workspaceSlug, s),
      apiLink: absoluteSourceLink(ctx.publicUrl, s),
      passage: s.content ?? null,
    })),
  };
}

/** The Markdown export (docs/conversations.md, "Markdown export"). */
export function toMarkdown(c: ConversationRow, msgs: MessageRow[], ctx: ExportContext): string {
  const out: string[] = [`# ${c.title.replace(/\s+/g, ' ')}`, '', `Created: ${c.createdAt.toISOString()}`, ''];
  for (const m of msgs) {
    out.push(`## ${m.role === 'user' ? 'User' : 'Assistant'}`, '', `_${m.createdAt.toISOString()}_`, '');
    // A line of the content that reads like a section heading is escaped, so sections stay unambiguous.
    out.push(
      m.content
        .split('\n')
        .map((l) => (HEADING.test(l) ? `\\${l}` : l))
        .join('\n'),
      '',
    );
    const meta = m.role === 'assistant' ? m.metadata : null;
    if (meta && meta.sources?.length) {
      const evidence = answerEvidence(meta, ctx);
      out.push(`Confidence: ${evidence.confidence}`, '', 'Sources:', '');
      evidence.sources.forEach((s, i) => {
        const title = s.title.replace(/[[\]]/g, (ch) => `\\${ch}`);
        if (i > 0) out.push('');
        out.push(`- [Source ${s.sourceNumber}: ${title}](${s.link})`);
        const where = [s.section ? `Section: ${s.section.replace(/\s+/g, ' ')}` : '', s.page ? `Page ${s.page}` : ''].filter(Boolean);
        out.push(`  ${[s.cited ? 'Cited in the answer' : 'Retrieved, not cited', ...where].join(' · ')}`);
        // The passages the answer cites, quoted as retrieved (hard line breaks of the source reflowed).
        if (s.cited && s.passage) {
          out.push('');
          for (const line of reflowQuote(s.passage).split('\n')) out.push(line ? `  > ${line}` : '  >');
        }
      });
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** A message as the JSON export holds it: the message as the API serves it, an answer with its evidence. */
export type ExportedMessage = MessageView & { evidence?: { confidence: string; sources: ExportedSource[] } };

/** A conversation exported as JSON: the conversation, all its messages, when it was exported. */
export interface ConversationExport {
  conversation: ConversationView;
  messages: ExportedMessage[];
  exportedAt: string;
}

/** The caller's conversations in a workspace and their messages (docs/conversations.md). */
export interface ConversationsService {
  /** One page of the caller's conversations with a status. */
  list(
    scope: Scope,
    q: { page: number; limit: number; status: ConversationStatus; sort: string },
  ): Promise<{ conversations: ConversationView[]; pagination: Pagination }>;
  /** Creates a conversation (a blank title is a 400; none gives the default). */
  create(scope: Scope, title?: string): Promise<ConversationView>;
  /** One conversation with its newest `messageLimit` messages. */
  get(scope: Scope, id: string, messageLimit: number): Promise<{ conversation: ConversationView; messages: MessageView[] }>;
  /** Renames, archives or reactivates a conversation. */
  update(scope: Scope, id: string, patch: { title?: string; status?: 'active' | 'archived' }): Promise<ConversationRow>;
  /** Deletes a conversation and its messages. */
  remove(scope: Scope, id: string): Promise<void>;
  /** One page of a conversation's messages, optionally before or after a message. */
  messages(
    scope: Scope,
    id: string,
    q: { page: number; limit: number; before?: string; after?: string },
  ): Promise<{ messages: MessageView[]; pagination: Pagination }>;
  /** Deletes every message of a conversation and returns how many. */
  clearMessages(scope: Scope, id: string): Promise<{ deletedCount: number }>;
  /** The conversation as Markdown or as JSON. */
  export(
    scope: Scope,
    id: string,
    format: 'json' | 'markdown',
  ): Promise<{ format: 'markdown'; markdown: string; conversation: ConversationRow } | { format: 'json'; data: ConversationExport }>;
  /** The conversation a question continues: the caller's, and not archived. */
  forQuestion(scope: Scope, id: string): Promise<ConversationRow>;
  /** The newest `n` messages, oldest first, as generator context. */
  history(scope: Scope, conversationId: string, n: number): Promise<HistoryTurn[]>;
  /** Stores a question and its answer once; creates the conversation when none is given. */
  saveExchange(
    scope: Pick<Scope, 'workspaceId' | 'userId'>,
    input: {
      conversationId: string | null;
      /** The id a new conversation gets (the caller may need it before the exchange is stored). */
      newConversationId?: string;
      question: string;
      askedAt: Date;
      answer: string;
      answeredAt: Date;
      metadata: AssistantMetadata;
    },
  ): Promise<{ conversationId: string; userMessageId: string; assistantMessageId: string }>;
}

export function conversationsService(repo: ConversationsRepository, opts: { publicUrl: string }): ConversationsService {
  async function owned(scope: Scope, id: string): Promise<ConversationRow> {
    const c = await repo.find(scope, id);
    if (!c) throw conversationNotFound();
    return c;
  }

  return {
    async list(scope, q) {
      const descending = q.sort.startsWith('-');
      const field = (descending ? q.sort.slice(1) : q.sort) as SortField;
      const { rows, total } = await repo.list(scope, { status: q.status, sort: field, desc: descending, limit: q.limit, offset: (q.page - 1) * q.limit });
      return {
        conversations: rows.map(conversationView),
        pagination: pagination(q, total),
      };
    },

    async create(scope, title) {
      const t = title?.trim();
      if (title !== undefined && !t) throw badRequest('title: must not be blank', ['title: must not be blank']);
      return conversationView(await repo.insert(scope, t || DEFAULT_TITLE));
    },

    async get(scope, id, messageLimit) {
      const c = await owned(scope, id);
      const { rows } = await repo.messages(scope, c.id, { limit: messageLimit, offset: 0, fromEnd: true });
      return { conversation: conversationView(c), messages: rows.map(messageView) };
    },

    async update(scope, id, patch) {
      const title = patch.title?.trim();
      if (patch.title !== undefined && !title) throw badRequest('title: must not be blank', ['title: must not be blank']);
      const row = await repo.update(scope, id, { ...(title ? { title } : {}), ...(patch.status ? { status: patch.status } : {}) });
      if (!row) throw conversationNotFound();
      return row;
    },

    async remove(scope, id) {
      if (!(await repo.delete(scope, id))) throw conversationNotFound();
    },

    async messages(scope, id, q) {
      const c = await owned(scope, id);
      const seqOf = async (field: 'before' | 'after', messageId: string) => {
        const seq = await repo.messageSeq(scope, c.id, messageId);
        if (seq === null) throw badRequest(`${field}: no message with this id in the conversation`, [`${field}: no message with this id in the conversation`]);
        return seq;
      };
      const beforeSeq = q.before ? await seqOf('before', q.before) : undefined;
      const afterSeq = q.after ? await seqOf('after', q.after) : undefined;
      const fromEnd = beforeSeq !== undefined && afterSeq === undefined;
      const offset = (q.page - 1) * q.limit;
      const { rows, total } = await repo.messages(scope, c.id, { beforeSeq, afterSeq, limit: q.limit, offset, fromEnd });
      return {
        messages: rows.map(messageView),
        pagination: { ...pagination(q, total), hasMore: offset + rows.length < total },
      };
    },

    async clearMessages(scope, id) {
      const c = await owned(scope, id);
      return { deletedCount: await repo.clearMessages(scope, c) };
    },

    async export(scope, id, format) {
      const c = await owned(scope, id);
      const msgs = await repo.allMessages(scope, c.id);
      const ctx = { publicUrl: opts.publicUrl, workspaceSlug: scope.slug };
      if (format === 'markdown') return { format, markdown: toMarkdown(c, msgs, ctx), conversation: c };
      const messages = msgs.map((m): ExportedMessage => {
        const view = messageView(m);
        return m.role === 'assistant' && m.metadata ? { ...view, evidence: answerEvidence(m.metadata, ctx) } : view;
      });
      return { format, data: { conversation: conversationView(c), messages, exportedAt: new Date().toISOString() } };
    },

    // ---- for the answer service ----

    async forQuestion(scope, id) {
      const c = await owned(scope, id);
      if (c.status !== 'active') {
        throw new AppError(409, 'CONVERSATION_ARCHIVED', 'Conversation is archived: set its status to active to continue it');
      }
      return c;
    },

    async history(scope, conversationId, n) {
      if (n <= 0) return [];
      const { rows } = await repo.messages(scope, conversationId, { limit: n, offset: 0, fromEnd: true });
      return rows.map((m) => ({ role: m.role, content: m.content }));
    },

    async saveExchange(scope, input) {
      const msgs: NewMessage[] = [
        { role: 'user', content: input.question, metadata: null, createdAt: input.askedAt },
        { role: 'assistant', content: input.answer, metadata: input.metadata, createdAt: input.answeredAt },
      ];
      const saved = await repo.appendExchange(scope, {
        conversationId: input.conversationId,
        newConversationId: input.newConversationId,
        newTitle: titleFromQuestion(input.question),
        messages: msgs,
      });
      if (!saved) throw conversationNotFound();
      return { conversationId: saved.conversationId, userMessageId: saved.messageIds[0], assistantMessageId: saved.messageIds[1] };
    },
  };
}
