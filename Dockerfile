# syntax=docker/dockerfile:1
# Multi-stage image of the service on Node 24 LTS, the runtime CI tests (README "Quick start").
# Production sets DATABASE_URL, S3_* and MASTER_KEY; the embedded defaults are for evaluation only.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY libs ./libs
COPY migrations ./migrations
COPY tools/cli ./tools/cli
RUN npm run build

FROM node:24-slim AS runtime
# Debian's Chromium renders PDF reports (puppeteer, its download off in .puppeteerrc.json).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    CHROMIUM_PATH=/usr/bin/chromium
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN useradd --system --uid 10001 --home-dir /app app && mkdir -p /app/.data && chown -R app /app/.data
USER app
EXPOSE 3000
# Readiness (docs/operations.md): database, migrations, object store, workers. A `worker` replica
# serves no HTTP: its compose service or pod overrides this check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--heap-growing-percent=75", "dist/src/main.js"]
