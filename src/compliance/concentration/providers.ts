import { readFileSync } from 'node:fs';

/**
 * Provider keys (docs/concentration.md): "Amazon Web Services", "AWS" and "Amazon Web
 * Services, Inc." are one provider. A name is normalized (case, accents, punctuation, legal
 * suffixes), then looked up in the organization's overrides (an analyst's merge or split),
 * then in the maintained alias table (providerAliases.json); a name in neither is its own
 * provider.
 */

interface AliasFile {
  providers: { name: string; aliases: string[] }[];
}
const file = JSON.parse(readFileSync(new URL('./providerAliases.json', import.meta.url), 'utf8')) as AliasFile;

/** Legal-form words stripped from the end of a name (one or more): "Inc.", "GmbH", "S.A.", "Pty Ltd"… */
const LEGAL_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'kg',
  'se',
  'sa',
  'sas',
  'sasu',
  'sarl',
  'sl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'oyj',
  'ab',
  'as',
  'asa',
  'aps',
  'kk',
  'pty',
  'pte',
  'pbc',
  'holdings',
  'group',
]);

/**
 * The normalized form of a provider name: lower case, accents and punctuation removed, `&` as
 * `and`, dotted initials joined ("S.A." -> "sa"), trailing legal-form words stripped
 * ("Amazon Web Services, Inc." -> "amazon web services"). Empty when nothing is left.
 */
export function nameKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\b([a-z])\.(?=[a-z]\.)/g, '$1') // s.a. -> sa.
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  while (words.length > 1 && words[0] === 'the') words.shift();
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/** An analyst's override of the alias table, stored per organization. */
export interface AliasOverride {
  /** The normalized name the override applies to. */
  nameKey: string;
  /** `merge`: the name is the provider `providerKey`; `split`: the name is its own provider, whatever the table says. */
  action: 'merge' | 'split';
  providerKey: string;
  /** The display name of the provider it resolves to. */
  providerName: string;
}

export interface ResolvedProvider {
  /** The provider key: the normalized canonical name. */
  key: string;
  /** The canonical name (the alias table's, the analyst's, or the name as written). */
  name: string;
  /** How the key was found. */
  via: 'table' | 'merge' | 'split' | 'name';
}

export interface ProviderResolver {
  resolve(name: string): ResolvedProvider;
  /** The alias table's entries (canonical name and aliases). */
  table(): { key: string; name: string; aliases: string[] }[];
}

const TABLE = new Map<string, { key: string; name: string }>();
for (const p of file.providers) {
  const key = nameKey(p.name);
  for (const n of [p.name, ...p.aliases]) TABLE.set(nameKey(n), { key, name: p.name });
}

/** A resolver over the alias table with an organization's overrides on top. */
export function providerResolver(overrides: AliasOverride[] = []): ProviderResolver {
  const byKey = new Map(overrides.map((o) => [o.nameKey, o]));
  const lookup = (k: string): ResolvedProvider | null => {
    const o = byKey.get(k);
    if (o) return { key: o.providerKey, name: o.providerName, via: o.action };
    const t = TABLE.get(k);
    return t ? { key: t.key, name: t.name, via: 'table' } : null;
  };
  function resolveKey(k: string, written: string): ResolvedProvider {
    let r = lookup(k) ?? { key: k, name: written.trim(), via: 'name' as const };
    // A merge into a name that was itself merged follows the chain (a few steps, never a cycle).
    for (let i = 0, seen = new Set([k]); i < 5 && r.via === 'merge' && !seen.has(r.key); i++) {
      seen.add(r.key);
      const next = byKey.get(r.key);
      if (!next || next.action !== 'merge') break;
      r = { key: next.providerKey, name: next.providerName, via: 'merge' };
    }
    return r;
  }
  return {
    resolve(name) {
      const k = nameKey(name);
      const direct = resolveKey(k, name);
      if (direct.via !== 'name') return direct;
      // "Amazon Web Services (AWS)", "AWS (Amazon Web Services)": either part may be the known one.
      const m = /^(.*?)\s*\(([^)]*)\)\s*(.*)$/.exec(name);
      if (m) {
        for (const part of [`${m[1]} ${m[3]}`, m[2]!]) {
          const r = resolveKey(nameKey(part), part);
          if (r.via !== 'name') return r;
        }
        const outer = `${m[1]} ${m[3]}`.trim();
        if (outer) return { key: nameKey(outer), name: outer, via: 'name' };
      }
      return direct;
    },
    table() {
      return file.providers.map((p) => ({ key: nameKey(p.name), name: p.name, aliases: p.aliases }));
    },
  };
}
