# syntax=docker/dockerfile:1
# Multi-stage build of the dashboard: dependencies → production build → slim non-root runtime
# that runs Next's standalone server. Migrations are a separate step that uses the `build`
# stage (it has the Payload CLI): `docker compose run --rm migrate`, or the compose file's
# `migrate` service, which the app waits for.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# Build-time placeholders only: the real values come from the runtime environment. Pages that
# read the database at build time tolerate its absence and are revalidated at run time.
ENV NEXT_TELEMETRY_DISABLED=1 \
    APP_SECRET=build-time-placeholder-secret-not-used-at-runtime \
    DATABASE_URI=file:/tmp/build.db \
    PUBLIC_SERVER_URL=http://localhost:3000
RUN npm run build

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
# NODE_OPTIONS: the conditions as .npmrc sets them for npm scripts (Lexical's entry points, see
# .npmrc); the heap sizes and malloc arenas as scripts/start.ts gives the server (why: see there).
ENV NODE_ENV=production \
    NODE_OPTIONS="--conditions=production --max-old-space-size=384 --max-semi-space-size=8" \
    MALLOC_ARENA_MAX=2 \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    MEDIA_DIR=/app/media
# The standalone server; `npm run build` copied the static assets and public files into it,
# so this is the folder `npm start` serves from too.
COPY --from=build --chown=node:node /app/.next/standalone ./
RUN mkdir -p /app/media /app/data && chown node:node /app/media /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server.js"]
