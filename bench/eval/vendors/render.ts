/**
 * Renders some vendors of the development set as the files a bank actually receives: PDF
 * (pdfkit, DejaVu Sans for the non-Latin-1 letters of some addresses) or Word (docx), from the
 * Markdown, wording unchanged: headings, paragraphs, list items and table rows (a real table in
 * Word, one line per row in the PDF) with inline Markdown (emphasis, links) reduced to its text.
 * Writes bench/eval/vendors/<slug>/rendered/<name>.pdf|docx; the benches and tests draft and
 * assess those vendors from these files too (test/helpers/devset.ts, `vendorFiles(v, 'rendered')`).
 *
 *   npx tsx bench/eval/vendors/render.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { marked, type Token, type Tokens } from 'marked';
import PDFDocument from 'pdfkit';

const dir = path.dirname(fileURLToPath(import.meta.url));
/** Which vendors, in which form. */
const RENDER: Record<string, 'pdf' | 'docx'> = { secoda: 'pdf', pdfshift: 'pdf', spacelift: 'docx' };
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const FONT_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** Inline Markdown to its text: links to their label, emphasis and code marks dropped, entities and `<br>` decoded. */
function inline(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0');
}

type Block = { kind: 'heading'; depth: number; text: string } | { kind: 'para'; text: string; bullet?: string } | { kind: 'table'; rows: string[][] };

/** The document's blocks in order (front matter's title as the first heading). */
function blocks(md: string): Block[] {
  const out: Block[] = [];
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(md);
  if (fm) {
    const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(fm[1]!)?.[1];
    if (title) out.push({ kind: 'heading', depth: 1, text: title });
    md = md.slice(fm[0].length);
  }
  const walk = (tokens: Token[], bullet?: string) => {
    for (const t of tokens) {
      if (t.type === 'heading') out.push({ kind: 'heading', depth: (t as Tokens.Heading).depth, text: inline((t as Tokens.Heading).text) });
      else if (t.type === 'paragraph' || t.type === 'text') out.push({ kind: 'para', text: inline((t as Tokens.Paragraph).text), bullet });
      else if (t.type === 'list') {
        const l = t as Tokens.List;
        l.items.forEach((item, i) => {
          const mark = l.ordered ? `${(Number(l.start) || 1) + i}.` : '•';
          walk(item.tokens, mark);
        });
      } else if (t.type === 'table') {
        const tb = t as Tokens.Table;
        out.push({ kind: 'table', rows: [tb.header.map((c) => inline(c.text)), ...tb.rows.map((r) => r.map((c) => inline(c.text)))] });
      } else if (t.type === 'blockquote') walk((t as Tokens.Blockquote).tokens, bullet);
      else if (t.type === 'code') out.push({ kind: 'para', text: (t as Tokens.Code).text });
      else if (t.type === 'html') {
        const text = inline((t as Tokens.HTML).text).trim();
        if (text) out.push({ kind: 'para', text });
      }
    }
  };
  walk(marked.lexer(md));
  return out;
}

function pdf(bs: Block[], title: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Producer: 'render.ts', Creator: 'render.ts', CreationDate: new Date(0) } });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.registerFont('body', FONT);
    doc.registerFont('bold', FONT_BOLD);
    for (const b of bs) {
      if (b.kind === 'heading') {
        doc
          .moveDown(0.6)
          .font('bold')
          .fontSize(b.depth <= 1 ? 16 : b.depth === 2 ? 13 : 11)
          .text(b.text);
        doc.moveDown(0.3);
      } else if (b.kind === 'para') {
        doc.font('body').fontSize(10);
        if (b.bullet) doc.text(`${b.bullet} ${b.text}`, { indent: 0 });
        else doc.text(b.text);
        doc.moveDown(0.4);
      } else {
        doc.font('body').fontSize(9);
        for (const [i, row] of b.rows.entries()) {
          doc.font(i === 0 ? 'bold' : 'body').text(row.join('   '));
          doc.moveDown(0.2);
        }
        doc.moveDown(0.4);
      }
    }
    doc.end();
  });
}

function docx(bs: Block[], title: string): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [];
  const levels = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4];
  const runs = (text: string) => text.split('\n').map((line, i) => new TextRun({ text: line, break: i ? 1 : 0 }));
  for (const b of bs) {
    if (b.kind === 'heading') children.push(new Paragraph({ heading: levels[Math.min(b.depth, 4) - 1], children: runs(b.text) }));
    else if (b.kind === 'para') children.push(new Paragraph({ children: runs(b.bullet ? `${b.bullet} ${b.text}` : b.text) }));
    else
      children.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: b.rows.map(
            (r, i) => new TableRow({ tableHeader: i === 0, children: r.map((c) => new TableCell({ children: [new Paragraph({ children: runs(c) })] })) }),
          ),
        }),
      );
  }
  const doc = new Document({ creator: 'render.ts', title, sections: [{ children }] });
  return Packer.toBuffer(doc);
}

const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
  vendors: { slug: string; documents: { file: string; title: string }[] }[];
};
for (const [slug, form] of Object.entries(RENDER)) {
  const v = manifest.vendors.find((x) => x.slug === slug);
  if (!v) throw new Error(`no vendor ${slug}`);
  const outDir = path.join(dir, slug, 'rendered');
  mkdirSync(outDir, { recursive: true });
  for (const d of v.documents) {
    const bs = blocks(readFileSync(path.join(dir, d.file), 'utf8'));
    const buf = form === 'pdf' ? await pdf(bs, d.title) : await docx(bs, d.title);
    const out = path.join(outDir, `${path.basename(d.file, '.md')}.${form}`);
    writeFileSync(out, buf);
    console.log(`${path.relative(dir, out)}: ${buf.length} bytes`);
  }
}
