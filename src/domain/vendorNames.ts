/**
 * The names a vendor goes by, as the rules that read its documents need them ("GitHub will
 * notify", "Keboola’s platform"): the workspace's name and the profile's legal name, each
 * once. A workspace named "Brand (Product)" goes by "Brand" and "Product" too.
 */
export function vendorNamesOf(...names: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    const name = raw?.trim();
    if (!name) continue;
    out.add(name);
    const parts = /^(.+?)\s*\(([^()]+)\)$/.exec(name);
    if (parts) for (const p of parts.slice(1)) if (p.trim()) out.add(p.trim());
  }
  return [...out];
}
