import { useQuery } from '@tanstack/react-query';
import { apiFetch, get } from '../api/client';
import type { ApiData, Conversation } from '../api/types';

export const conversationsKey = (ws: string) => ['conversations', ws] as const;
export const conversationKey = (ws: string, id: string) => ['conversation', ws, id] as const;

/** The caller's conversations with this vendor (active or archived), most recent first. */
export function useConversations(ws: string, status: 'active' | 'archived') {
  return useQuery({
    queryKey: [...conversationsKey(ws), status],
    queryFn: () => get<ApiData<'listConversations'>>('/conversations', { workspace: ws, query: { status, limit: 100, sort: '-lastMessageAt' } }),
  });
}

/** One conversation with its newest messages (oldest first). */
export function useConversation(ws: string, id: string | undefined) {
  return useQuery({
    queryKey: conversationKey(ws, id ?? ''),
    enabled: !!id,
    queryFn: () => get<ApiData<'getConversation'>>(`/conversations/${encodeURIComponent(id!)}`, { workspace: ws, query: { messageLimit: 200 } }),
  });
}

/** Downloads the export of a conversation (JSON or Markdown) as a file. */
export async function downloadExport(ws: string, c: Conversation, format: 'json' | 'markdown') {
  const res = await apiFetch('GET', `/conversations/${encodeURIComponent(c.id)}/export`, {
    workspace: ws,
    query: { format },
    headers: { Accept: format === 'json' ? 'application/json' : 'text/markdown' },
  });
  let blob: Blob;
  if (format === 'json') {
    const env = await res.json();
    blob = new Blob([JSON.stringify(env.data, null, 2)], { type: 'application/json' });
  } else {
    blob = await res.blob();
  }
  const safe =
    c.title
      .replace(/[^\w -]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'conversation';
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = `${safe}.${format === 'json' ? 'json' : 'md'}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
