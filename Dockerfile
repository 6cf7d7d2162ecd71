# syntax=docker/dockerfile:1
#
# One image for every QDC process (the seven of SERVICE_PROCESSES, libs/platform/src/service/service-processes.ts);
# the command picks the service (default: the gateway).
#   gateway            node dist/apps/gateway/src/main.js                  HTTP on PORT (8000): /livez, /readyz
#   inference worker   node dist/apps/inference-worker/src/main.js         probes on QDC_HEALTH_PORT (9111)
#   results            node dist/apps/results/src/main.js                  probes on QDC_HEALTH_PORT (9102); migrates on boot
#   qpu-broker         node dist/apps/qpu-broker/src/main.js               probes on QDC_HEALTH_PORT (9103)
#   simulation worker  node dist/apps/qpu-broker/src/simulation-worker.js  probes on QDC_HEALTH_PORT (9121)
#   lab-streams        node dist/apps/lab-streams/src/main.js              probes on QDC_HEALTH_PORT (9131)
#   assistant          node dist/apps/assistant/src/main.js                probes on QDC_HEALTH_PORT (9104)
# and the CLI (API keys, lab nodes):
#   node dist/apps/cli/src/main.js keys create --name alice --owner lab --scopes control,coda,admin
#
# No HEALTHCHECK here: each service has its own probe port, so docker-compose.yml and the
# Kubernetes manifests (deploy/) declare the checks per service.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    SCARF_ANALYTICS=false

# --- build: all dependencies (tsc, prisma CLI, jest types), Prisma client generation, tsc ---
FROM base AS build
COPY package.json package-lock.json ./
# The workspace package (@qdc/client): npm ci links node_modules/@qdc/client to it.
COPY packages/client/package.json ./packages/client/
RUN --mount=type=cache,target=/root/.npm npm ci
COPY . .
RUN npm run build

# --- production dependencies only ---
FROM base AS prod-deps
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev

# --- runtime ---
FROM base AS runtime
ENV NODE_ENV=production
# Files stay owned by root and read-only for the service user (works with a read-only root fs).
COPY --from=prod-deps /app/node_modules ./node_modules
# package.json carries the "imports" map (#qdc/* -> ./dist/libs/*/src/index.js) and "type": "module".
COPY package.json ./
# prisma/migrations is read at runtime (results applies migrations on boot; the keys CLI too).
COPY prisma ./prisma
# docs/knowledge (and the other docs) are the assistant's knowledge base and docs-search corpus.
COPY docs ./docs
COPY README.md ./
# Device files of the QPU broker and simulation workers (QDC_QPU_DEVICES_DIR defaults to /app/devices).
COPY devices ./devices
# The lab-node example (docs/lab-integration.md): `node dist/apps/cli/src/main.js node start --device examples/lab-node/device.json --simulate`.
COPY examples ./examples
# The generated Prisma client is compiled into dist/libs/platform/src/prisma/generated.
COPY --from=build /app/dist ./dist
# @qdc/client (the CLI's user commands import it): node_modules/@qdc/client links here.
COPY --from=build /app/packages/client/package.json ./packages/client/
COPY --from=build /app/packages/client/dist ./packages/client/dist
# The "node" user of the base image; numeric so Kubernetes runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8000
CMD ["node", "dist/apps/gateway/src/main.js"]
