import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The development set of real vendors (bench/eval/vendors/, README there): each vendor's
 * published documents, its half (`tune` or `report`) and its gold (gold.json: the register
 * fields the documents settle, and a strict analyst's verdict per DORA obligation).
 */
export const DEVSET_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/eval/vendors');

export type Half = 'tune' | 'report';

export interface DraftGoldVendor {
  fields: Record<string, { value?: unknown; document: string; quote: string; accept?: string[]; correction?: string }>;
  /** Fields the documents address but leave without a value, with why. */
  open?: Record<string, { reason: string; document: string; quote: string }>;
  notSettled: string[];
}

export interface VerdictGold {
  status: 'covered' | 'partial' | 'missing';
  reason: string;
  quotes: { document: string; quote: string }[];
  limitation?: { document: string; quote: string };
  correction?: string;
}

export interface DevVendor {
  slug: string;
  name: string;
  legalName: string | null;
  half: Half;
  documents: { file: string; kind: string; title: string }[];
  gold: { draft?: DraftGoldVendor; verdicts?: Record<string, VerdictGold> } | null;
}

interface Manifest {
  vendors: { slug: string; name: string; legalName?: string; half: Half; documents: { file: string; kind: string; title: string }[] }[];
}

/** The vendors of the set (optionally one half), with their gold where it has been written. */
export function devVendors(half?: Half): DevVendor[] {
  const manifest = JSON.parse(readFileSync(path.join(DEVSET_DIR, 'manifest.json'), 'utf8')) as Manifest;
  return manifest.vendors
    .filter((v) => !half || v.half === half)
    .map((v) => {
      const goldFile = path.join(DEVSET_DIR, v.slug, 'gold.json');
      return {
        slug: v.slug,
        name: v.name,
        legalName: v.legalName ?? null,
        half: v.half,
        documents: v.documents,
        gold: existsSync(goldFile) ? (JSON.parse(readFileSync(goldFile, 'utf8')) as DevVendor['gold']) : null,
      };
    });
}

/**
 * A vendor's documents as uploads: the Markdown files, or (`form: 'rendered'`) the PDF or
 * DOCX renderings where render.ts made them (bench/eval/vendors/<slug>/rendered/), the form a
 * bank receives; a vendor without renderings gives its Markdown.
 */
export function vendorFiles(v: DevVendor, form: 'markdown' | 'rendered' = 'markdown'): { filename: string; declaredType: string | null; content: Buffer }[] {
  return v.documents.map((d) => {
    const md = path.join(DEVSET_DIR, d.file);
    if (form === 'rendered') {
      for (const ext of ['pdf', 'docx']) {
        const r = path.join(DEVSET_DIR, v.slug, 'rendered', `${path.basename(d.file, '.md')}.${ext}`);
        if (existsSync(r)) return { filename: path.basename(r), declaredType: null, content: readFileSync(r) };
      }
    }
    return { filename: path.basename(md), declaredType: null, content: readFileSync(md) };
  });
}

/** Whether a vendor has PDF or DOCX renderings. */
export const hasRenderings = (v: DevVendor) => existsSync(path.join(DEVSET_DIR, v.slug, 'rendered'));
