# Production image. Build: docker build -t dora-vendor-service .
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY src ./src
COPY migrations ./migrations
COPY data ./data
COPY tsconfig.json drizzle.config.ts ./
USER node
EXPOSE 3000
ENV HOST=0.0.0.0 PORT=3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import=tsx", "src/server.ts"]
