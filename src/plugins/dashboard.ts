import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface DashboardOptions {
  /** The dashboard's build output (web/dist): index.html, assets/, public files. */
  dir: string;
}

/** Paths that belong to the service, never to the dashboard's client routes. */
const SERVICE_PATHS = /^\/(?:api|docs|health)(?:[/?#.]|$)/;
/** A path that names a file: a missing file is a 404, never the app shell. */
const FILE_PATH = /\.(?:js|mjs|css|map|png|jpe?g|gif|svg|ico|webp|avif|json|txt|xml|webmanifest|woff2?|ttf)$/i;
const YEAR_SEC = 365 * 24 * 3600;

/**
 * Security headers of the app shell. Scripts and styles come only from this origin (Vite emits
 * no inline script); `blob:` lets the dashboard open a downloaded original document; the page
 * cannot be framed (clickjacking).
 */
const SHELL_HEADERS: Record<string, string> = {
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; " +
    "frame-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * Serves the built dashboard at `/` (docs/dashboard.md):
 * - `/assets/*`: content-hashed files, cached for a year as immutable (pre-compressed
 *   `.br`/`.gz` siblings are sent when the client accepts them);
 * - other files of the build root (favicon): cached for an hour;
 * - any other GET outside `/api`, `/docs` and `/health`: `index.html` (client routes), never cached.
 * Without a build it answers those paths with a page saying how to build it.
 */
export default fp<DashboardOptions>(
  async function dashboardPlugin(app: FastifyInstance, opts) {
    const dir = path.resolve(opts.dir);
    const indexFile = path.join(dir, 'index.html');
    const built = existsSync(indexFile);
    let shell: Buffer | null = null;
    const rootFiles = new Set<string>();

    if (built) {
      shell = readFileSync(indexFile);
      for (const name of readdirSync(dir)) {
        if (name !== 'index.html' && !name.startsWith('.') && statSync(path.join(dir, name)).isFile()) rootFiles.add(name);
      }
      const assets = path.join(dir, 'assets');
      await app.register(fastifyStatic, {
        root: existsSync(assets) ? assets : dir,
        prefix: '/assets/',
        index: false,
        list: false,
        preCompressed: true,
        cacheControl: true,
        maxAge: YEAR_SEC * 1000,
        immutable: true,
        // The routeGuards onRoute hook sees this route too; it is not under /api, so only identify runs.
      });
    }

    const sendShell = (reply: FastifyReply) => {
      if (!shell) {
        return reply
          .status(503)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(
            '<!doctype html><html lang="en"><meta charset="utf-8"><title>Dashboard not built</title>' +
              '<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">' +
              '<h1>The dashboard is not built</h1><p><code>npm start</code> builds it before the service starts ' +
              '(or run <code>npm run build:web</code>). The API is available at <a href="/docs">/docs</a>.</p></body></html>',
          );
      }
      reply.headers(SHELL_HEADERS);
      return reply.type('text/html; charset=utf-8').send(shell);
    };

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0]!;
      if (SERVICE_PATHS.test(pathname)) return reply.callNotFound();
      let name: string;
      try {
        name = decodeURIComponent(pathname.slice(1));
      } catch {
        return reply.callNotFound();
      }
      if (built && rootFiles.has(name)) return reply.sendFile(name, dir, { maxAge: 3600 * 1000, immutable: false });
      if (FILE_PATH.test(pathname)) return reply.callNotFound();
      return sendShell(reply);
    };
    app.get('/', handler);
    app.get('/*', handler);
  },
  { name: 'dashboard' },
);
