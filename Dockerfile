# Signpost as a container: built once, run as the unprivileged `node` user on Node 24 LTS. The image
# holds the compiled service (dist/, the web SDK bundled in it), the console app, its migrations
# (sql/) and production dependencies only: no TypeScript, tsx or esbuild at run time.
#
#   docker build -t signpost .
#   docker run -p 8080:8080 -v signpost-data:/app/data -e SIGNPOST_ADMIN_TOKEN=... signpost
#
# Without DATABASE_URL / CLICKHOUSE_URL / NATS_URL it runs on the embedded engines, which keep their
# files in /app/data: mount a volume there. docker-compose.yml runs it against real servers.
# With a ClickHouse server, leave the embedded engine (chDB, 543 MB) out of the image:
#
#   docker build --build-arg EMBEDDED_CLICKHOUSE=false -t signpost:server .
#
# Such an image refuses to start without CLICKHOUSE_URL, saying so.
# The operator CLI ships compiled too: `docker compose exec app node dist/cli/signpost.js help`.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so editing the source does not reinstall them. npm's prepare step builds
# nothing yet (no sources in the image at this point), and says so.
COPY package.json package-lock.json ./
COPY scripts/build.mjs scripts/build-console.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# The service and the web SDK into dist/, then the console app into dist/console.
RUN npm run build && npm run build:console

FROM ${NODE_IMAGE} AS runtime
# true: chDB inside, so the image runs on its own; false: CLICKHOUSE_URL is required.
ARG EMBEDDED_CLICKHOUSE=true
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the only production dependency with one (chdb) has an empty one, and the
# prepare step builds from sources this stage does not have. Without embedded ClickHouse, chDB is
# removed after the install rather than left out with --omit=optional, which would also leave out
# resvg's platform binary (the PNG renderer of the reports' charts).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && if [ "$EMBEDDED_CLICKHOUSE" = "false" ]; then rm -rf node_modules/chdb node_modules/@chdb; fi \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
# Migrations resolve as ../../sql from dist/shared/, that is /app/sql; the reports' chart font as
# ../../../assets from dist/core/reports/, that is /app/assets.
COPY sql ./sql
COPY assets ./assets
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
# node:*-slim has neither curl nor wget; Node's own fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
