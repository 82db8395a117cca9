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
