/** Types of scripts/build-server.mjs for the TypeScript callers (bench). */
export function sourceHash(): string;
export function isFresh(hash?: string): boolean;
export function buildServer(opts?: { force?: boolean }): Promise<boolean>;
