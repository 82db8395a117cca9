import { Type, type Static } from 'typebox';

/**
 * A retrieved source (a passage an answer may cite), in one shape for retrieval, the
 * answer responses, the messages that keep it and the query log (docs/rag.md). The
 * variants are this schema with fields picked or left out, never written out again.
 * Property order is the order of the JSON responses.
 */
export const SourceSchema = Type.Object({
  /** Chunk id. */
  id: Type.String(),
  sourceNumber: Type.Number(),
  title: Type.String(),
  content: Type.String(),
  url: Type.String(),
  section: Type.String(),
  /** Relevance 0..1: weighted share of the question's concepts the passage holds, blended with its fusion rank. */
  score: Type.Number(),
  documentId: Type.String(),
  dataSourceId: Type.Union([Type.String(), Type.Null()]),
  /** First page of the passage (PDF page, XLSX worksheet), as a string; null for flowing formats. */
  page: Type.Union([Type.String(), Type.Null()]),
  /** NULL for the shared DORA corpus. */
  workspaceId: Type.Union([Type.String(), Type.Null()]),
});
export type Source = Static<typeof SourceSchema>;

/** A source as an assistant message keeps it: without its workspace; the passage text is absent on messages stored before it was kept. */
export const MessageSourceSchema = Type.Evaluate(
  Type.Intersect([
    Type.Omit(SourceSchema, ['content', 'workspaceId']),
    Type.Object({
      content: Type.Optional(Type.String({ description: 'the passage as retrieved for this answer; absent on messages stored before passages were kept' })),
    }),
  ]),
);
export type MessageSource = Static<typeof MessageSourceSchema>;

/** A source an answer cites. */
export const CitedSourceSchema = Type.Pick(SourceSchema, ['sourceNumber', 'title', 'url']);
export type CitedSource = Static<typeof CitedSourceSchema>;

/** A source as the query log keeps it (no passage text), with whether the answer cited it. */
export const QueryLogSourceSchema = Type.Evaluate(
  Type.Intersect([Type.Omit(SourceSchema, ['content', 'page', 'workspaceId']), Type.Object({ cited: Type.Boolean() })]),
);
export type QueryLogSource = Static<typeof QueryLogSourceSchema>;

/** A logged source as the analytics query list shows it. */
const logged = QueryLogSourceSchema.properties;
export const LoggedSourceSchema = Type.Object({
  sourceNumber: logged.sourceNumber,
  documentId: logged.documentId,
  title: logged.title,
  url: logged.url,
  score: logged.score,
  cited: logged.cited,
});
export type LoggedSource = Static<typeof LoggedSourceSchema>;
