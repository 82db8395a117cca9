# Production image. Build: docker build -t dora-vendor-service .
# Stage 1 builds the dashboard (web/, Vite) to static files; the final image holds only the
# service's production dependencies and the built dashboard.
# Node 24 (Active LTS): the runtime the dependencies declare (engines in package.json; README).
FROM node:24-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json ./web/
RUN npm ci --no-audit --no-fund
COPY scripts/build-web.mjs ./scripts/
COPY web ./web
RUN node scripts/build-web.mjs --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json ./web/
# patches/: fixes to dependencies applied by patch-package after install (docs/reliability.md).
COPY patches ./patches
RUN npm ci --omit=dev && npm cache clean --force
COPY src ./src
COPY migrations ./migrations
COPY data ./data
COPY tsconfig.json drizzle.config.ts ./
COPY scripts/build-server.mjs ./scripts/
# The service as plain JavaScript (dist/, transpiled by esbuild): no TypeScript loader at run time.
RUN node scripts/build-server.mjs --force
COPY --from=web /app/web/dist ./web/dist
USER node
EXPOSE 3000
ENV HOST=0.0.0.0 PORT=3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/server.js"]
