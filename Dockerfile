# Opsdeck's image, built the way CI tests the package: `npm pack` (its prepack builds the UI and
# compiles the server), then `npm install --global --omit=dev` of that tarball — production
# dependencies only. Not built in CI: there is no container daemon there (README).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# npm install, not npm ci: see docs/decisions.md (the lockfile is written against a registry
# mirror that lacks other platforms' optional binaries).
RUN npm install --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/opsdeck-*.tgz /tmp/opsdeck.tgz

FROM node:20-bookworm-slim
# pg_dump/pg_restore for `opsdeck backup` and `restore` with DATABASE_URL.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
COPY --from=build /tmp/opsdeck.tgz /tmp/opsdeck.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/opsdeck.tgz && rm /tmp/opsdeck.tgz \
  && mkdir -p /var/lib/opsdeck && chown node:node /var/lib/opsdeck
ENV NODE_ENV=production DATA_DIR=/var/lib/opsdeck PORT=3000 HOST=0.0.0.0
USER node
WORKDIR /var/lib/opsdeck
VOLUME /var/lib/opsdeck
EXPOSE 3000
# Node is PID 1 and handles SIGTERM itself (docker stop): it stops within 2 s.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["opsdeck", "start"]
