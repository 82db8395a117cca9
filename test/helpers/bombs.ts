import { Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * Hostile documents, generated at run time (no large fixture in the repository): small
 * files that expand into a great deal of work for a parser. Used by the bomb tests and
 * bench/parse-bombs.ts.
 */

/** A stream of `piece` repeated as many whole times as fit in `total` bytes. */
function repeated(piece: string, total: number): Readable {
  const per = Math.max(1, Math.floor((256 * 1024) / piece.length));
  const block = Buffer.from(piece.repeat(per));
  let left = Math.floor(total / piece.length);
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, per);
      left -= n;
      this.push(n === per ? block : block.subarray(0, n * piece.length));
    },
  });
}

async function zip(entries: { name: string; content: string | (() => Readable) }[]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const e of entries) {
    if (typeof e.content === 'string') z.addBuffer(Buffer.from(e.content), e.name, { compress: true });
    else z.addReadStream(e.content(), e.name, { compress: true });
  }
  z.end();
  const parts: Buffer[] = [];
  for await (const c of z.outputStream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOCX_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const DOCX_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * A DOCX whose `word/document.xml` expands to `bytes` (default 95 MB, under the 100 MiB
 * archive limit), made of paragraphs of text: about 340 KB on the wire.
 */
export function docxTextBomb(bytes = 95 * 1024 * 1024): Promise<Buffer> {
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>`;
  const tail = '</w:body></w:document>';
  const para = '<w:p><w:r><w:t>The provider shall notify the customer of any incident without undue delay. </w:t></w:r></w:p>';
  return zip([
    { name: '[Content_Types].xml', content: DOCX_TYPES },
    { name: '_rels/.rels', content: DOCX_RELS },
    {
      name: 'word/document.xml',
      content: () =>
        Readable.from(
          (async function* () {
            yield Buffer.from(head);
            yield* repeated(para, bytes - head.length - tail.length);
            yield Buffer.from(tail);
          })(),
        ),
    },
  ]);
}

/**
 * A DOCX of `bytes` of empty paragraphs (little text, a huge document tree): the
 * character limit cannot catch it, only the parser's memory and time budget.
 */
export function docxTreeBomb(bytes = 60 * 1024 * 1024): Promise<Buffer> {
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>Start</w:t></w:r></w:p>`;
  const tail = '</w:body></w:document>';
  return zip([
    { name: '[Content_Types].xml', content: DOCX_TYPES },
    { name: '_rels/.rels', content: DOCX_RELS },
    {
      name: 'word/document.xml',
      content: () =>
        Readable.from(
          (async function* () {
            yield Buffer.from(head);
            yield* repeated('<w:p><w:r><w:t>x</w:t></w:r></w:p>', bytes - head.length - tail.length);
            yield Buffer.from(tail);
          })(),
        ),
    },
  ]);
}

/**
 * An XLSX with one sheet of `rows` x 10 cells that all show one shared string: a few
 * hundred KB that a parser turns into `rows` x 10 x 84 characters of text.
 */
export function xlsxBomb(rows = 15_000): Promise<Buffer> {
  const cols = 'ABCDEFGHIJ'.split('');
  const types =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
  const workbook =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
  const wbRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
  // Every cell shows the one shared string: little XML, a great deal of text.
  const shared = 'The provider shall maintain an exit plan for every critical or important function. ';
  const cellsOf = (r: number) => cols.map((c) => `<c r="${c}${r}" t="s"><v>0</v></c>`).join('');
  return zip([
    { name: '[Content_Types].xml', content: types },
    { name: '_rels/.rels', content: rels },
    { name: 'xl/workbook.xml', content: workbook },
    { name: 'xl/_rels/workbook.xml.rels', content: wbRels },
    {
      name: 'xl/sharedStrings.xml',
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>${shared}</t></si></sst>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: () =>
        Readable.from(
          (async function* () {
            yield Buffer.from(
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
            );
            let batch = '';
            for (let r = 1; r <= rows; r++) {
              batch += `<row r="${r}">${cellsOf(r)}</row>`;
              if (batch.length > 256 * 1024) {
                yield Buffer.from(batch);
                batch = '';
              }
            }
            yield Buffer.from(batch);
            yield Buffer.from('</sheetData></worksheet>');
          })(),
        ),
    },
  ]);
}

/**
 * An XLSX whose shared-string table holds `strings` distinct short strings (default 150,000,
 * about 300 KB zipped), each shown by one cell of a 10-column sheet: many small objects for
 * a parser to build (one per string, per cell, per row), with little text per object.
 */
export function xlsxSharedStringsBomb(strings = 150_000): Promise<Buffer> {
  const cols = 'ABCDEFGHIJ'.split('');
  const types =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
  const workbook =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
  const wbRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
  const generated = (head: string, body: (i: number) => string, n: number, tail: string) => () =>
    Readable.from(
      (async function* () {
        yield Buffer.from(head);
        let batch = '';
        for (let i = 0; i < n; i++) {
          batch += body(i);
          if (batch.length > 256 * 1024) {
            yield Buffer.from(batch);
            batch = '';
          }
        }
        yield Buffer.from(batch + tail);
      })(),
    );
  const rows = Math.ceil(strings / cols.length);
  return zip([
    { name: '[Content_Types].xml', content: types },
    { name: '_rels/.rels', content: rels },
    { name: 'xl/workbook.xml', content: workbook },
    { name: 'xl/_rels/workbook.xml.rels', content: wbRels },
    {
      name: 'xl/sharedStrings.xml',
      content: generated(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings}" uniqueCount="${strings}">`,
        (i) => `<si><t>s${i.toString(36)}</t></si>`,
        strings,
        '</sst>',
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: generated(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
        (r) =>
          `<row r="${r + 1}">${cols.map((c, j) => (r * cols.length + j < strings ? `<c r="${c}${r + 1}" t="s"><v>${r * cols.length + j}</v></c>` : '')).join('')}</row>`,
        rows,
        '</sheetData></worksheet>',
      ),
    },
  ]);
}

/** A JSON document nested `depth` levels deep (default two million: `[[[...]]]`, 4 MB). */
export function jsonDeepBomb(depth = 2_000_000): Buffer {
  return Buffer.concat([Buffer.alloc(depth, '['), Buffer.from('"deep"'), Buffer.alloc(depth, ']')]);
}

/**
 * A "PDF" of `bytes` (default 200 KB): a valid header and trailer around garbage with
 * many broken object headers, so that the parser has to scan and reconstruct.
 */
export function pdfGarbage(bytes = 200 * 1024, seed = 1): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let n = 0;
  let size = parts[0]!.length;
  // Deterministic bytes: the same file on every run.
  let x = seed;
  const rnd = (len: number) => {
    const b = Buffer.alloc(len);
    for (let i = 0; i < len; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      b[i] = x & 0xff;
    }
    return b;
  };
  while (size < bytes) {
    n += 1;
    const p = Buffer.concat([
      Buffer.from(`${n} 0 obj\n<< /Length ${1000 + n} /Filter /FlateDecode >>\nstream\n`),
      rnd(200),
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    parts.push(p);
    size += p.length;
  }
  parts.push(Buffer.from(`trailer\n<< /Root 1 0 R /Size ${n + 1} >>\nstartxref\n999999\n%%EOF\n`));
  return Buffer.concat(parts);
}
