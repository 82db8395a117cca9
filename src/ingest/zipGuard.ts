import yauzl from 'yauzl';
import { archiveBomb, corruptFile, encryptedFile, formatBytes } from './errors.js';

export interface ZipInspection {
  entries: number;
  uncompressedBytes: number;
  /** Contents of the small entries asked for (e.g. `docProps/core.xml`). */
  files: Map<string, Buffer>;
}

const MAX_ENTRIES = 10_000;

/**
 * Checks an Office file (a zip) before any parser inflates it: at most 10,000 entries,
 * no encrypted entry, and a total expanded size within `maxBytes` — both as declared in
 * the central directory and as actually inflated (every entry is streamed through a
 * counter that stops at the limit, so a lying header cannot get past). Returns the
 * contents of the entries named in `keep`.
 */
export async function inspectZip(buf: Buffer, name: string, maxBytes: number, keep: string[] = []): Promise<ZipInspection> {
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
        const parts: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) {
            stream.destroy();
            fail(tooBig());
            return;
          }
          if (wanted) parts.push(chunk);
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
