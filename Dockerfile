# syntax=docker/dockerfile:1
# Encore Campaigns: the built service on Node 20, as a non-root user, production dependencies
# only. docs/deploy.md says how to run it; scripts/image-recipe-check.sh runs these same
# commands in CI (no Docker engine there) and checks this file still says them.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency, then `npm run build`: TypeScript to dist/, with the SQL migrations
#    beside it (gen/ is committed, nothing is generated).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only, without install scripts (none is needed at run time).
#    --omit=optional as well: the prisma CLI (only `npm run generate` uses it; the generated
#    client is committed) is a devDependency that is also an optional peer of @prisma/client,
#    which --omit=dev alone keeps; the only other optional package is pg-cloudflare (Workers).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

# 3. Run: code owned by root and read-only to the service's user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9464 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The embedded database's folder, for a trial without DATABASE_URL; production uses PostgreSQL.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080 9464
# Ready: the database answers (GET /readyz). Cleartext only: with TLS_CERT_FILE set, override it.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 (exec form, no npm or shell in between): it gets SIGTERM, drains and exits.
# --max-semi-space-size=8: V8's young generation as it is on a machine with 2 GB. Under a
# container's memory limit V8 shrinks it (1 MB a semi-space at 512 Mi), and a purchase then
# costs 17 to 27 % more CPU; 16 MB, its size from 4 GB, costs some 12 MB more for no CPU to
# measure (docs/performance.md, "Memory").
# --max-old-space-size=256: the old generation V8 gives itself under the Deployment's 512 Mi
# limit, on any machine: sized by a machine's memory instead, it grows to some four times what
# is live before V8 collects it (docs/performance.md, "Memory").
# --wasm-tiering-budget=100000000: Prisma's query compiler (WebAssembly, busy at start-up, then
# rarely) stays on V8's baseline compiler instead of being recompiled by TurboFan at start-up,
# which kept the process some 50 MB larger for good (docs/performance.md, "WebAssembly compiled
# twice").
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--wasm-tiering-budget=100000000", "dist/src/main.js"]
