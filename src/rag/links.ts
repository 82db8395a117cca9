/**
 * The internal link of a source (docs/rag.md, "Source links"): where inside this API
 * the passage can be looked up. A DORA article links to the compliance reference
 * (`/api/v1/compliance/articles/Article-28`); a workspace document links to its data
 * source (`/api/v1/data-sources/<id>`), with the document and chunk in the fragment.
 */
export function internalSourceLink(s: { id: string; documentId: string; dataSourceId: string | null; title: string; url: string; section?: string }): string {
  if (s.url.startsWith('/api/v1/')) return s.url;
  if (s.dataSourceId)
    return `/api/v1/data-sources/${encodeURIComponent(s.dataSourceId)}#document=${encodeURIComponent(s.documentId)}&chunk=${encodeURIComponent(s.id)}`;
  const article = /\bArticle[\s_-]+(\d{1,3})\b/i.exec(`${s.title} ${s.url} ${s.section ?? ''}`);
  if (article) return `/api/v1/compliance/articles/Article-${Number(article[1])}`;
  return s.url;
}

/**
 * The absolute link of a passage in the dashboard (docs/conversations.md, "Export"): the
 * document opened at the passage, `PUBLIC_URL/vendors/<workspace>/documents/<document>?chunk=<chunk>`.
 * It works for a reader who signs in (the API links need the workspace header).
 */
export function dashboardSourceLink(publicUrl: string, workspaceSlug: string, s: { id: string; documentId: string }): string {
  const base = publicUrl.replace(/\/+$/, '');
  return `${base}/vendors/${encodeURIComponent(workspaceSlug)}/documents/${encodeURIComponent(s.documentId)}?chunk=${encodeURIComponent(s.id)}`;
}

/** An internal source link made absolute with PUBLIC_URL. */
export function absoluteSourceLink(publicUrl: string, s: Parameters<typeof internalSourceLink>[0]): string {
  const link = internalSourceLink(s);
  return link.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${link}` : link;
}
