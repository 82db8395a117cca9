import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import yauzl from 'yauzl';
import { archiveBomb, corruptFile, documentTooLarge, encryptedFile, formatBytes } from './errors.js';

export interface ZipInspection {
  entries: number;
  uncompressedBytes: number;
  /** Contents of the small entries asked for (e.g. `docProps/core.xml`). */
  files: Map<string, Buffer>;
}

const MAX_ENTRIES = 10_000;

/**
 * The text an Office file will yield, counted while its XML is inflated, so that a file
 * over the character limit is refused before any parser builds its document tree.
 */
export interface TextCount {
  /** Entries whose text is counted (e.g. `word/document.xml`). */
  entries: RegExp;
  /** Elements whose character data is text (`w:t`; `t` and `v` in a workbook). */
  textElements: ReadonlySet<string>;
  /** Elements that each add a separator to the text (paragraphs, cells), and how many characters. */
  unitElements: ReadonlySet<string>;
  unitChars: number;
  limit: number;
}

export const DOCX_TEXT = (limit: number): TextCount => ({
  entries: /^word\/(document|footnotes|endnotes)\.xml$/,
  textElements: new Set(['w:t']),
  unitElements: new Set(['w:p']),
  unitChars: 2,
  limit,
});

export const XLSX_TEXT = (limit: number): TextCount => ({
  entries: /^xl\/(sharedStrings\.xml|worksheets\/[^/]+\.xml)$/,
  textElements: new Set(['t', 'v']),
  unitElements: new Set(['c']),
  unitChars: 2,
  limit,
});

/** A streaming XML reader that counts the text of one entry and throws past the limit. */
function textCounter(count: TextCount, state: { chars: number }, over: () => Error) {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (count.textElements.has(name)) depth += 1;
        if (count.unitElements.has(name)) state.chars += count.unitChars;
      },
      onclosetag(name) {
        if (count.textElements.has(name) && depth > 0) depth -= 1;
      },
      ontext(text) {
        if (depth > 0) state.chars += text.length;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  const decoder = new StringDecoder('utf8');
  return (chunk: Buffer) => {
    parser.write(decoder.write(chunk));
    if (state.chars > count.limit) throw over();
  };
}

/**
 * Checks an Office file (a zip) before any parser inflates it: at most 10,000 entries,
 * no encrypted entry, and a total expanded size within `maxBytes` — both as declared in
 * the central directory and as actually inflated (every entry is streamed through a
 * counter that stops at the limit, so a lying header cannot get past). With `text`, the
 * text of the document's XML is counted as it streams by and the file is refused once
 * it passes the character limit. Returns the contents of the entries named in `keep`.
 */
export async function inspectZip(buf: Buffer, name: string, maxBytes: number, keep: string[] = [], text?: TextCount): Promise<ZipInspection> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (err, z) => {
      if (err || !z) reject(corruptFile(name, `not a valid Office (zip) container: ${err?.message ?? 'unreadable'}`));
      else resolve(z);
    });
  });
  if (zip.entryCount > MAX_ENTRIES) {
    zip.close();
    throw archiveBomb(name, `${zip.entryCount} entries in the archive (limit ${MAX_ENTRIES})`);
  }
  const files = new Map<string, Buffer>();
  let total = 0;
  let declared = 0;
  const tooBig = () => archiveBomb(name, `it expands beyond the limit of ${formatBytes(maxBytes)} when decompressed`);
  const textState = { chars: 0 };
  const tooMuchText = () => documentTooLarge(name, `more than ${text!.limit} characters of text`);
  return new Promise<ZipInspection>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      zip.close();
      reject(err);
    };
    zip.on('error', (err: Error) => fail(corruptFile(name, err.message)));
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ entries: zip.entryCount, uncompressedBytes: total, files });
    });
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.isEncrypted()) return fail(encryptedFile(name));
      declared += entry.uncompressedSize;
      if (declared > maxBytes) return fail(tooBig());
      if (/\/$/.test(entry.fileName)) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return fail(corruptFile(name, err?.message ?? 'unreadable entry'));
        const wanted = keep.includes(entry.fileName);
        const counter = text && text.entries.test(entry.fileName) ? textCounter(text, textState, tooMuchText) : null;
        const parts: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) {
            stream.destroy();
            fail(tooBig());
            return;
          }
          if (wanted) parts.push(chunk);
          if (counter) {
            try {
              counter(chunk);
            } catch (err) {
              stream.destroy();
              fail(err as Error);
            }
          }
        });
        stream.on('error', (e: Error) => fail(corruptFile(name, e.message)));
        stream.on('end', () => {
          if (wanted) files.set(entry.fileName, Buffer.concat(parts));
          if (!settled) zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}
