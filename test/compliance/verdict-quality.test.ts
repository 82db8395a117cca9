import t from 'tap';
import { vendorNamesOf } from '../../src/domain/vendorNames.js';
import { runGapAnalysis } from '../../src/compliance/gapAnalysis.js';
import { VENDOR_OBLIGATIONS } from '../../src/compliance/obligations.js';
import type { GapStatus } from '../../src/domain/gap.js';
import { parseFile } from '../../src/ingest/parse.js';
import { LocalHashEmbedder } from '../../src/rag/embedders/local.js';
import { devVendors, vendorFiles } from '../helpers/devset.js';

/**
 * Floors under the offline verdicts on the reporting half of the development set
 * (bench/eval/vendors/: real vendors' published documents, never read while the rules were
 * written), against the strict analyst's verdict gold: a little under the figures
 * bench/assessment-quality.ts measured (docs/assessments.md: exact agreement 0.78, 43
 * over-claims in 450 verdicts of 15 vendors, 2.9 per 30 obligations, after the sixth round; 3.1 per 30
 * when Axiom, Taxy and Airfold joined the half with 7, 7 and 4 over-claims at their first run; 3.2 per 30, 55 in 510
 * verdicts, when Socialo and Promptfoo joined it in the seventh session with 12 in 60, the 15 earlier vendors unchanged
 * at 2.9; 3.25 per 30, 65 in 600 verdicts of 20 vendors, when Cap, Runtara and Flo Apps joined too; 3.5 per 30, 73 in
 * 630 verdicts of 21 vendors, when Stakater joined in the eighth session with 8 at its first run; 3.7 per 30, 82 in 660
 * verdicts of 22 vendors, when Baton joined with 9 at its first run; 3.9 per 30, 93 in 720 verdicts of 24 vendors, when
 * Sesam and Tale joined with 5 and 6; 3.9 per 30, 112 in 870 verdicts of 29 vendors, exact 0.75, when Hook0, Verifik,
 * Tropos, Codat and Autopilot Monitor joined in the ninth session with 25 in 150 at their first runs). An
 * over-claim (the engine says more than the analyst) is the dangerous error, so the floor is a
 * ceiling on those too, per 30 obligations so that it holds as vendors are added.
 */
const ORDER: GapStatus[] = ['missing', 'partial', 'covered'];

t.test('offline verdicts of the reporting half: exact agreement >= 0.74, at most 4.0 over-claims per 30 obligations', async (t) => {
  const embedder = new LocalHashEmbedder(384);
  let exact = 0;
  let over = 0;
  let total = 0;
  const vendors = devVendors('report').filter((v) => v.gold?.verdicts);
  t.ok(vendors.length >= 15, `${vendors.length} reporting vendors with verdict gold`);
  for (const v of vendors) {
    const documents = [];
    for (const [i, f] of vendorFiles(v).entries()) {
      const { doc } = await parseFile(f.content, f.filename, null, { maxTextChars: 5_000_000, maxDecompressedBytes: 100 * 1024 * 1024 });
      documents.push({ id: `d${i}`, filename: f.filename, title: doc.title ?? null, blocks: doc.blocks });
    }
    const { results } = await runGapAnalysis({
      obligations: VENDOR_OBLIGATIONS,
      documents,
      embedder,
      vendorNames: vendorNamesOf(v.name, v.legalName),
    });
    for (const r of results) {
      const gold = v.gold!.verdicts![r.obligationId];
      if (!gold) continue;
      total++;
      if (gold.status === r.status) exact++;
      if (ORDER.indexOf(r.status) > ORDER.indexOf(gold.status)) over++;
    }
  }
  t.comment(`exact ${(exact / total).toFixed(2)} (${exact}/${total}), over-claims ${over}`);
  t.ok(total >= 450, `${total} verdicts compared`);
  t.ok(exact / total >= 0.74, `exact agreement ${(exact / total).toFixed(2)} >= 0.74`);
  const per30 = (over / total) * 30;
  t.ok(per30 <= 4.0, `${over} over-claims in ${total} verdicts: ${per30.toFixed(2)} per 30 obligations <= 4.0`);
});
