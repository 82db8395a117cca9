import { AlignmentType, BorderStyle, Document, HeadingLevel, Packer, Paragraph, ShadingType, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import type { AssessmentSummary } from '../db/schema/assessments.js';
import type { EvidenceRole, GapResult, GapStatus } from '../domain/gap.js';
import type { VendorImpact } from './concentration/portfolio.js';

export interface ReportInput {
  assessment: { id: string; name: string; score: number; riskRating: string; summary: AssessmentSummary; results: GapResult[]; completedAt: Date };
  vendor: { name: string; legalName: string | null; criticalityTier: string | null };
  documents: { filename: string; title: string | null; format: string }[];
  /** The sign-off, when the assessment was signed off. */
  signOff?: { at: string; userName: string | null; note: string } | null;
  /** Analysts' comments per obligation, oldest first. */
  comments?: { obligationId: string | null; text: string; userName: string | null; at: string }[];
  /** For a vendor in onboarding: what it would add to concentration (docs/concentration.md). */
  concentration?: VendorImpact | null;
}

/**
 * The "Evidence elements found" cell: met of all, and how many more were found but limited or only partly ("0/2, 2
 * limited"), so that a partial status beside "0/2" does not read as nothing found.
 */
function elementsFound(elements: GapResult['elements']): string {
  const met = elements.filter((e) => e.satisfied).length;
  const limited = elements.filter((e) => !e.satisfied && e.level === 'limited').length;
  const partly = elements.filter((e) => !e.satisfied && e.level === 'partial').length;
  return [`${met}/${elements.length}`, limited ? `${limited} limited` : '', partly ? `${partly} partly` : ''].filter(Boolean).join(', ');
}

const STATUS_LABEL: Record<GapStatus, string> = { covered: 'Covered', partial: 'Partial', missing: 'Missing' };
const STATUS_COLOR: Record<GapStatus, string> = { covered: '2E7D32', partial: 'B26A00', missing: 'C62828' };
const ROLE_LABEL: Record<Exclude<EvidenceRole, 'evidence'>, string> = { limitation: 'Limitation', contrary: 'Contrary clause', partial: 'Partly' };
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function cell(text: string, opts: { bold?: boolean; shade?: string; width?: number } = {}) {
  return new TableCell({
    width: opts.width ? { size: opts.width, type: WidthType.PERCENTAGE } : undefined,
    shading: opts.shade ? { type: ShadingType.CLEAR, color: 'auto', fill: opts.shade } : undefined,
    children: [new Paragraph({ children: [new TextRun({ text, bold: opts.bold })] })],
  });
}

function table(header: string[], rows: string[][], widths?: number[]) {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({ tableHeader: true, children: header.map((h, i) => cell(h, { bold: true, shade: 'D9E2F3', width: widths?.[i] })) }),
      ...rows.map((r) => new TableRow({ children: r.map((c, i) => cell(c, { width: widths?.[i] })) })),
    ],
  });
}

const p = (text: string, opts: { bold?: boolean; italics?: boolean; size?: number } = {}) => new Paragraph({ children: [new TextRun({ text, ...opts })] });

/**
 * The Word report of a completed assessment: summary (score, risk rating and why,
 * counts, key gaps), findings per article with the requirement, the DORA text, the
 * evidence elements found and the evidence quotes with their source, the documents
 * reviewed, and the method.
 */
export async function buildAssessmentReport(input: ReportInput): Promise<Buffer> {
  const { assessment: a, vendor } = input;
  const s = a.summary;
  const children: (Paragraph | Table)[] = [];

  children.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(`DORA Gap Assessment: ${vendor.name}`)] }));
  children.push(p(a.name, { italics: true }));
  children.push(p(`Completed ${a.completedAt.toISOString().slice(0, 10)} · Assessment ${a.id}`));
  if (vendor.legalName) children.push(p(`Provider: ${vendor.legalName}${vendor.criticalityTier ? ` (criticality tier: ${vendor.criticalityTier})` : ''}`));
  const signOff = input.signOff;
  children.push(
    new Paragraph({
      children: signOff
        ? [
            new TextRun({ text: 'Signed off ', bold: true }),
            new TextRun(`by ${signOff.userName ?? 'a former member'} on ${signOff.at.slice(0, 10)}: ${signOff.note}`),
          ]
        : [new TextRun({ text: 'Not signed off: this report is a draft of the review.', bold: true, color: 'B26A00' })],
    }),
  );

  children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Summary')] }));
  children.push(new Paragraph({ children: [new TextRun({ text: 'Overall score: ', bold: true }), new TextRun(`${a.score}/100`)] }));
  children.push(new Paragraph({ children: [new TextRun({ text: 'Risk rating: ', bold: true }), new TextRun(cap(a.riskRating))] }));
  const overridden = a.results.filter((r) => r.analyst).length;
  if (overridden) {
    children.push(
      p(
        `${overridden} verdict${overridden === 1 ? ' is' : 's are'} the analyst's (marked *); the engine alone gave ${s.engineScore ?? a.score}/100, ${s.engineRiskRating ?? a.riskRating}.`,
      ),
    );
  }
  for (const reason of s.riskReasons) children.push(new Paragraph({ text: reason, bullet: { level: 0 } }));
  children.push(
    table(['Obligations assessed', 'Covered', 'Partial', 'Missing'], [[String(s.obligations), String(s.covered), String(s.partial), String(s.missing)]]),
  );
  if (s.missingKey.length) {
    children.push(p(''));
    children.push(p(`Key obligations without evidence: ${s.missingKey.join(', ')}.`, { bold: true }));
  }
  children.push(p(''));
  children.push(
    table(
      ['Reference', 'Obligation', 'Status', 'Evidence elements found'],
      a.results.map((r) => [r.ref, r.title, `${STATUS_LABEL[r.status]}${r.analyst ? ' *' : ''}`, elementsFound(r.elements)]),
      [18, 52, 12, 18],
    ),
  );

  if (input.concentration) children.push(...concentrationSection(input.concentration));

  children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Findings by article')] }));
  let article = '';
  for (const r of a.results) {
    if (r.article !== article) {
      article = r.article;
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(article)] }));
    }
    children.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_3,
        children: [new TextRun(`${r.ref}: ${r.title} `), new TextRun({ text: `[${STATUS_LABEL[r.status]}]`, color: STATUS_COLOR[r.status], bold: true })],
      }),
    );
    children.push(new Paragraph({ children: [new TextRun({ text: 'Requirement: ', bold: true }), new TextRun(r.requirement)] }));
    if (r.doraText)
      children.push(new Paragraph({ children: [new TextRun({ text: 'DORA text: ', bold: true }), new TextRun({ text: r.doraText, italics: true })] }));
    children.push(new Paragraph({ children: [new TextRun({ text: 'Finding: ', bold: true }), new TextRun(r.rationale)] }));
    if (r.analyst) {
      children.push(
        new Paragraph({
          children: [
            new TextRun({ text: "Analyst's verdict: ", bold: true }),
            new TextRun({ text: STATUS_LABEL[r.analyst.status], color: STATUS_COLOR[r.analyst.status], bold: true }),
            new TextRun(
              ` (engine: ${STATUS_LABEL[r.analyst.engineStatus]}). ${r.analyst.reason} (${r.analyst.userName ?? 'a former member'}, ${r.analyst.at.slice(0, 10)})`,
            ),
          ],
        }),
      );
    }
    for (const c of (input.comments ?? []).filter((c) => c.obligationId === r.obligationId)) {
      children.push(
        new Paragraph({
          children: [new TextRun({ text: 'Comment: ', bold: true }), new TextRun(`${c.text} (${c.userName ?? 'a former member'}, ${c.at.slice(0, 10)})`)],
        }),
      );
    }
    for (const e of r.elements) {
      const level = e.level ?? (e.satisfied ? 'met' : 'none');
      const mark = level === 'met' ? '✓' : level === 'none' ? '✗' : '◐';
      children.push(
        new Paragraph({ text: `${mark} ${e.label}${level === 'limited' || level === 'partial' ? ` (${e.note ?? level})` : ''}`, bullet: { level: 0 } }),
      );
    }
    if (r.evidence.length) {
      children.push(p('Evidence:', { bold: true }));
      for (const ev of r.evidence) {
        children.push(
          new Paragraph({
            indent: { left: 567 },
            border: { left: { style: BorderStyle.SINGLE, size: 12, color: '9E9E9E', space: 8 } },
            children: [
              ...(ev.role && ev.role !== 'evidence' ? [new TextRun({ text: `${ROLE_LABEL[ev.role]}: `, bold: true, color: STATUS_COLOR.partial })] : []),
              new TextRun({ text: `“${ev.truncated ? '…' : ''}${ev.quote}${ev.truncated ? '…' : ''}”`, italics: true }),
            ],
          }),
        );
        const where = [ev.filename, ev.section, ev.page ? `page ${ev.page}` : ''].filter(Boolean).join(' · ');
        children.push(
          new Paragraph({ indent: { left: 567 }, alignment: AlignmentType.LEFT, children: [new TextRun({ text: `— ${where}`, size: 18, color: '616161' })] }),
        );
      }
    } else {
      children.push(p('Evidence: none found in the documents reviewed.', { italics: true }));
    }
  }

  children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Documents reviewed')] }));
  children.push(
    table(
      ['File', 'Title', 'Format'],
      input.documents.map((d) => [d.filename, d.title ?? '', d.format]),
    ),
  );

  children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Method')] }));
  children.push(
    p(
      'Each obligation is broken into evidence elements. A passage (one sentence, two adjacent sentences of the same paragraph, or a list item with its lead-in) ' +
        "evidences an element when it matches the element's patterns, is not negated, binds the right party (a commitment of the provider, or a right of the customer), " +
        `and is relevant to the obligation (lexical BM25 and embedding similarity${s.embedder ? `, embedder ${s.embedder}` : ''}). ` +
        'Limiting language ("only to the extent", "satisfied by reports", "at the customer\'s expense", "commercially reasonable efforts", "sole discretion", "subject to"), ' +
        'a right given only for personal-data processing, a data-protection authority where a financial supervisor is required, or a clause pointing the other way ' +
        'make the element limited (◐), with the limiting clause quoted. Covered: every element met without limitation; partial: some evidence, or a limitation; ' +
        'missing: none. Quotes are verbatim from the documents. The score weights key contractual clauses highest.',
    ),
  );

  const doc = new Document({
    creator: 'DORA Vendor Service',
    title: `DORA Gap Assessment: ${vendor.name}`,
    description: a.name,
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}

/**
 * Before signing: what the vendor would add to concentration risk (DORA Art. 28(4)(c), the
 * assessment of concentration risk before a contract; Art. 29(1), several critical functions on
 * the same or closely connected providers; Art. 29(2), subcontracting chains in third countries).
 */
function concentrationSection(c: VendorImpact): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Concentration risk before signing')] })];
  out.push(
    p(
      'DORA Article 28(4)(c) asks the entity to assess, before it enters a contractual arrangement, whether the arrangement leads to ICT concentration risk as referred to in Article 29; Article 29(1) looks at whether several critical or important functions would rest on the same or closely connected providers, and Article 29(2) at subcontracting chains reaching third countries. The figures compare the portfolio without this vendor and with it (docs/concentration.md).',
      { italics: true },
    ),
  );
  const shared = c.providers.filter((x) => x.alreadyDependedOn);
  out.push(
    p(
      shared.length
        ? `The vendor would add to ${shared.length} provider${shared.length === 1 ? '' : 's'} other vendors already depend on: ${shared
            .slice(0, 5)
            .map((x) => `${x.name} (${x.vendorsBefore} vendors)`)
            .join(', ')}${shared.length > 5 ? ', …' : ''}.`
        : 'No provider on its chain is depended on by another vendor of the portfolio.',
    ),
  );
  out.push(
    p(
      c.newlyConcentratedFunctions.length
        ? `Critical or important functions newly concentrated: ${c.newlyConcentratedFunctions.map((f) => `${f.code} ${f.name} (on ${f.providers.join(', ')})`).join('; ')}.`
        : 'No critical or important function becomes newly concentrated on a provider that already carries others.',
    ),
  );
  out.push(
    p(
      `Concentration index (HHI) over vendor dependencies: ${c.index.vendors.before} → ${c.index.vendors.after}; over critical function dependencies: ${c.index.criticalFunctions.before} → ${c.index.criticalFunctions.after}.`,
    ),
  );
  if (c.newThirdCountries.length) out.push(p(`Third countries it brings into the portfolio's chains (Art. 29(2)): ${c.newThirdCountries.join(', ')}.`));
  if (c.providers.length) {
    const quote = (x: VendorImpact['providers'][number]) => {
      const link = c.links.find((l) => l.id === x.path.at(-1));
      const e = link?.evidence[0];
      return e ? `“${e.quote.slice(0, 300)}” (${e.title})` : 'entered by hand';
    };
    out.push(p(''));
    out.push(
      table(
        ['Provider', 'Rank', 'Vendors before → after', 'Critical functions before → after', 'Third country', 'Source'],
        c.providers
          .slice(0, 30)
          .map((x) => [
            x.name,
            String(x.rank),
            `${x.vendorsBefore} → ${x.vendorsAfter}`,
            `${x.criticalFunctionsBefore} → ${x.criticalFunctionsAfter}`,
            x.thirdCountry ? 'Yes' : 'No',
            quote(x),
          ]),
        [18, 7, 14, 16, 10, 35],
      ),
    );
  }
  return out;
}
