/** Types of scripts/build-web.mjs for the TypeScript callers (test harness, bench). */
export function sourceHash(): string;
export function isFresh(hash?: string): boolean;
export function ensureWebBuild(opts?: { force?: boolean; log?: (msg: string) => void }): 'fresh' | 'built' | 'stale';
