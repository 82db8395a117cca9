import t from 'tap';
import { loadVendorWorkspace } from '../../src/cli/demo.js';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { devVendors, vendorFiles } from '../helpers/devset.js';
import { judgeDraft, type DraftGold } from '../helpers/draftGold.js';
import { createOrg } from '../helpers/workspaces.js';

/**
 * Floors under the offline drafting quality on the reporting half of the development set
 * (bench/eval/vendors/: real SaaS vendors' published terms, DPAs, subprocessor lists, SLAs
 * and security pages, never read while the rules were written), against each vendor's gold:
 * a little under the figures bench/draft.ts measured (docs/register-drafting.md, "Quality":
 * precision 0.86, recall 0.64 over 15 vendors after the seventh round (0.62 after the sixth); 0.87 / 0.61 when Axiom (10 of 10
 * proposals right at its first run), Taxy (4 of 8) and Airfold (8 of 8) joined; 0.84 / 0.61 over 17 vendors when Socialo
 * and Promptfoo joined in the seventh session, the 15 earlier vendors unchanged at 0.86 / 0.64; 0.84 / 0.61 over 20
 * vendors, 124 of 204 right, when Cap, Runtara and Flo Apps joined too; 0.83 / 0.60 over 21 vendors, 129 of 215 right, when
 * Stakater joined in the eighth session with 5 of 8 proposals right at its first run, 11 fields in its gold; 0.84 / 0.61,
 * 138 of 226 right, when Baton joined with 9 of 10 right, 11 in its gold; 0.83 / 0.62, 149 of 241 right, 179 proposed,
 * when Sesam (3 of 7 right) and Tale (7 of 7) joined; 0.83 / 0.62, 182 of 293 right, 220 proposed, over 29 vendors when
 * Hook0, Verifik, Tropos, Codat and Autopilot Monitor joined in the ninth session with 30 of 38 proposals right; 0.82 / 0.61,
 * 199 of 324 right, 242 proposed, over 33 vendors in the tenth session, after Rocket.Chat (6 of 10 right at its first run),
 * Open-Meteo (1 of 1) and Genezio (7 of 8) joined: the precision floor went from 0.82 to 0.80 then, so that it stays a floor
 * under the figure, not the figure itself). Every quote is
 * verbatim in its stored passage; a field the documents leave open and the draft explains
 * is `not_found` with a reason and the passage it read.
 */
t.test('offline drafts of the reporting half: precision >= 0.80, recall >= 0.58, open fields explained, quotes verbatim', async (t) => {
  const ctx = await buildTestApp({}, { seed: false });
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const owner = await registerUser(app);
  const orgId = await createOrg(app, owner, 'Devset Bank');
  const vendors = devVendors('report').filter((v) => v.gold?.draft);
  t.ok(vendors.length >= 8, 'the vendors of the reporting half, each with its gold');
  const gold: DraftGold = { vendors: {} };
  const drafts: Record<string, Awaited<ReturnType<typeof app.services.profileDrafts.get>>> = {};
  for (const v of vendors) {
    gold.vendors[v.name] = v.gold!.draft!;
    const loaded = await loadVendorWorkspace(
      app.services,
      { userId: owner.id, orgId },
      { workspaceName: v.name, sourceName: `${v.name} published documents`, description: `bench/eval/vendors/${v.slug}`, files: () => vendorFiles(v) },
    );
    const { id } = await app.services.profileDrafts.start(loaded.scope);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const d = await app.services.profileDrafts.get(loaded.scope, id);
      if (d.status === 'completed' || d.status === 'failed') {
        drafts[v.name] = d;
        break;
      }
      if (Date.now() > deadline) throw new Error(`draft of ${v.name} still ${d.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    t.equal(drafts[v.name]!.status, 'completed', v.name);
  }
  const report = await judgeDraft(gold, drafts, async (chunkId) => {
    const [row] = await queryRows<{ content: string }>(database.db, sql`select content from chunks where id = ${chunkId}`);
    return row?.content ?? null;
  });
  t.comment(
    `precision ${report.precision.toFixed(2)} (${report.correct}/${report.proposed}), recall ${report.recall.toFixed(2)} (of ${report.gold}), open explained ${report.explained}/${report.open}`,
  );
  t.ok(report.precision >= 0.8, `precision ${report.precision.toFixed(2)} >= 0.80`);
  t.ok(report.recall >= 0.58, `recall ${report.recall.toFixed(2)} >= 0.58`);
  t.ok(report.explained >= 6, `${report.explained} of ${report.open} fields left open are explained (>= 6)`);
  t.ok(report.quotes > 80);
  t.equal(report.notVerbatim, 0, 'every quote is verbatim in the stored passage');
  // An explained field: not found, a reason, and the passage it was read from.
  const explained = Object.values(drafts).flatMap((d) => d.fields.filter((f) => f.status === 'not_found' && f.reason));
  t.ok(explained.length >= 6);
  t.ok(explained.every((f) => f.evidence.length > 0 && f.value === undefined));
});
