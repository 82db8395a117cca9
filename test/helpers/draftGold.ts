import { DRAFT_FIELDS } from '../../src/domain/profileDrafts.js';
import { valueKey } from '../../src/compliance/drafting/draft.js';
import type { DraftField } from '../../src/domain/profileDrafts.js';

/** bench/eval/draft-gold.json */
export interface DraftGold {
  vendors: Record<
    string,
    {
      fields: Record<string, { value?: unknown; document: string; quote: string; accept?: string[] }>;
      /** Fields the documents address but leave without a value ("may cancel at any time"): a value proposed is wrong; a reason is expected. */
      open?: Record<string, { reason: string; document: string; quote: string }>;
      notSettled: string[];
    }
  >;
}
interface DraftLike {
  fields: {
    field: string;
    status: string;
    value?: unknown;
    reason?: string;
    evidence: { chunkId: string; quote: string }[];
    candidates?: { value: unknown }[];
  }[];
}

const PROSE = new Set(['description', 'renewal', 'auditRights', 'exitProvisions']);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a proposed value is the gold one (docs/register-drafting.md, "Measure"). */
export function isCorrect(field: DraftField, gold: { value?: unknown; accept?: string[] }, proposal: DraftLike['fields'][number]): boolean {
  if (PROSE.has(field)) {
    const texts = [String(proposal.value ?? ''), ...proposal.evidence.map((e) => e.quote)].map(squash);
    return (gold.accept ?? []).some((a) => texts.some((t) => t.includes(squash(a))));
  }
  if (field === 'subcontractors') {
    const want = new Set((gold.value as string[]).map(squash));
    const got = new Set(((proposal.value ?? []) as { name: string }[]).map((s) => squash(s.name)));
    const hit = [...got].filter((n) => want.has(n)).length;
    const f1 = got.size && want.size ? (2 * hit) / (got.size + want.size) : 0;
    return f1 >= 0.9;
  }
  return valueKey(field, proposal.value as never) === valueKey(field, gold.value as never);
}

/**
 * Precision and recall of drafts against the gold file: a proposal is correct when it is the
 * gold value; a conflict or a value for a field the gold says the documents do not settle
 * counts against precision; a settled field without a correct proposal against recall.
 */
export async function judgeDraft(gold: DraftGold, drafts: Record<string, DraftLike>, chunkContent: (chunkId: string) => Promise<string | null>) {
  const per = new Map<string, { gold: number; proposed: number; correct: number }>(DRAFT_FIELDS.map((f) => [f, { gold: 0, proposed: 0, correct: 0 }]));
  const mistakes: string[] = [];
  let open = 0;
  let explained = 0;
  let quotes = 0;
  let notVerbatim = 0;
  for (const [vendor, g] of Object.entries(gold.vendors)) {
    const draft = drafts[vendor];
    if (!draft) throw new Error(`no draft for ${vendor}`);
    for (const p of draft.fields) {
      for (const e of [
        ...p.evidence,
        ...((p.candidates ?? []) as unknown as { evidence: { chunkId: string; quote: string }[] }[]).flatMap((c) => c.evidence),
      ]) {
        quotes++;
        const content = await chunkContent(e.chunkId);
        if (!content || !content.includes(e.quote)) {
          notVerbatim++;
          mistakes.push(`${vendor} ${p.field}: quote not verbatim in chunk ${e.chunkId}`);
        }
      }
    }
    for (const field of DRAFT_FIELDS) {
      const s = per.get(field)!;
      const want = g.fields[field];
      const p = draft.fields.find((f) => f.field === field);
      const offered = p && (p.status === 'proposed' || p.status === 'conflict' || p.status === 'unchanged');
      if (want) s.gold++;
      if (offered) s.proposed++;
      const left = g.open?.[field];
      if (left) {
        open++;
        if (p?.status === 'not_found' && p.reason) explained++;
        else if (!offered) mistakes.push(`${vendor} ${field}: left open by the documents (${left.reason}) but not explained`);
      }
      if (want && offered && p.status !== 'conflict' && isCorrect(field, want, p)) s.correct++;
      else if (want && !offered) mistakes.push(`${vendor} ${field}: not found (gold ${JSON.stringify(want.value ?? want.accept?.[0])})`);
      else if (offered)
        mistakes.push(
          `${vendor} ${field}: ${p.status} ${JSON.stringify(p.status === 'conflict' ? p.candidates?.map((c) => c.value) : p.value)?.slice(0, 160)}${want ? ` (gold ${JSON.stringify(want.value ?? want.accept?.[0])?.slice(0, 80)})` : left ? ` (gold: open, ${left.reason})` : ' (gold: not settled)'}`,
        );
    }
  }
  const fields = [...per.entries()].map(([field, s]) => ({
    field,
    ...s,
    precision: s.proposed ? s.correct / s.proposed : null,
    recall: s.gold ? s.correct / s.gold : null,
  }));
  const sum = (k: 'gold' | 'proposed' | 'correct') => fields.reduce((a, f) => a + f[k], 0);
  const total = { gold: sum('gold'), proposed: sum('proposed'), correct: sum('correct') };
  return {
    fields,
    ...total,
    precision: total.proposed ? total.correct / total.proposed : 0,
    recall: total.gold ? total.correct / total.gold : 0,
    quotes,
    notVerbatim,
    /** Fields the gold says are addressed but left open, and how many of them the draft explained (not found, with a reason). */
    open,
    explained,
    mistakes,
  };
}
