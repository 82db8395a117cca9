import t from 'tap';
import { loadDemo } from '../../src/cli/demo.js';
import { queryRows, sql } from '../../src/db/client.js';
import gold from '../../bench/eval/draft-gold.json' with { type: 'json' };
import { buildTestApp } from '../helpers/app.js';
import { judgeDraft, type DraftGold } from '../helpers/draftGold.js';

/**
 * A floor under the offline drafting quality on the demo vendors' real documents
 * (bench/draft.ts prints the full figures; docs/register-drafting.md): recall >= 0.70 at
 * precision >= 0.90 against bench/eval/draft-gold.json, every quote verbatim in its chunk.
 */
t.test('offline drafts of the demo vendors: recall >= 0.70, precision >= 0.90, quotes verbatim', async (t) => {
  const ctx = await buildTestApp({}, { seed: false });
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const demo = await loadDemo(app.services, {});
  const drafts: Record<string, Awaited<ReturnType<typeof app.services.profileDrafts.get>>> = {};
  for (const v of demo.vendors) {
    const scope = v.scope;
    const { id } = await app.services.profileDrafts.start(scope);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const d = await app.services.profileDrafts.get(scope, id);
      if (d.status === 'completed' || d.status === 'failed') {
        drafts[v.workspaceName] = d;
        break;
      }
      if (Date.now() > deadline) throw new Error(`draft still ${d.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    t.equal(drafts[v.workspaceName]!.status, 'completed');
  }
  const report = await judgeDraft(gold as DraftGold, drafts, async (chunkId) => {
    const [row] = await queryRows<{ content: string }>(database.db, sql`select content from chunks where id = ${chunkId}`);
    return row?.content ?? null;
  });
  t.comment(`precision ${report.precision.toFixed(2)}, recall ${report.recall.toFixed(2)}; ${report.mistakes.join(' | ')}`);
  t.ok(report.recall >= 0.7, `recall ${report.recall.toFixed(2)} >= 0.70`);
  t.ok(report.precision >= 0.9, `precision ${report.precision.toFixed(2)} >= 0.90`);
  t.ok(report.quotes > 20);
  t.equal(report.notVerbatim, 0, 'every quote is verbatim in the stored passage');
  // Fields the documents do not settle stay not found.
  t.equal(drafts.GitHub!.fields.find((f) => f.field === 'startDate')!.status, 'not_found');
  t.equal(drafts.Basecamp!.fields.find((f) => f.field === 'governingLaw')!.status, 'not_found');
});
