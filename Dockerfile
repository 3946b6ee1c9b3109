# syntax=docker/dockerfile:1
# Multi-stage: build with the full toolchain, run on a slim image with production dependencies only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema ./schema
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=4000 DATABASE_URL=file:/data/cipgate.db
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./
COPY --from=build /app/schema ./schema
# Sandbox demo names are read at first start.
COPY --from=build /app/src/features/resolution/registry/demo-names.jsonl ./src/features/resolution/registry/demo-names.jsonl
# The volume's mount point belongs to the user the service runs as: a named volume starts as a copy of
# it, so the embedded database and the sandbox key file can be written there. /app/data (where the key
# file goes when the database is PostgreSQL) is the same volume.
RUN mkdir -p /data && chown node:node /data && ln -s /data /app/data
VOLUME ["/data"]
EXPOSE 4000
USER node
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# package.json's start command, flags included (docs/operations.md, "Start"), exec'd so node is PID 1:
# npm start would run its build check first and would not pass SIGTERM on, so in-flight requests would not drain.
CMD ["sh", "-c", "exec $(node -p \"require('./package.json').scripts.start\")"]
