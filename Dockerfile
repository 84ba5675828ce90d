# Signpost as a container: built once, run as the unprivileged `node` user. The image holds the
# compiled service (dist/), its migrations (sql/) and production dependencies only.
#
#   docker build -t signpost .
#   docker run -p 8080:8080 -v signpost-data:/app/data -e SIGNPOST_ADMIN_TOKEN=... signpost
#
# Without DATABASE_URL / CLICKHOUSE_URL / NATS_URL it runs on the embedded engines, which keep their
# files in /app/data: mount a volume there. docker-compose.yml runs it against real servers.
# The operator CLI ships compiled too: `docker compose exec app node dist/cli/signpost.js help`.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Dependencies first, so editing the source does not reinstall them.
COPY package.json package-lock.json ./
# npm's prepare step runs this; without the console's sources yet it builds nothing.
COPY scripts/build-console.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# The service, then the console app into dist/console: the image runs no bundler.
RUN npm run build && npm run build:console

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/build-console.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Migrations resolve as ../../sql from dist/shared/, that is /app/sql.
COPY sql ./sql
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
# node:*-slim has neither curl nor wget; Node's own fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
