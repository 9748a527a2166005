# The app process's image: `docker build -t shieldline-vpn .` (compose.yaml builds it too).
# Two stages: the build (dev dependencies, Vite's client and SSR bundles), then the runtime
# with production dependencies only, run by an unprivileged user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf server/test && find server shared -name "*.test.ts" -delete

FROM node:20-bookworm-slim AS runtime
# tini reaps and forwards signals as PID 1, so SIGTERM reaches node and it drains. Nothing
# else is needed from Debian: the PDF fonts, argon2 and sharp come with their npm packages.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/shieldline
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY --from=build /app/shared ./shared
RUN mkdir -p /var/lib/shieldline && chown node:node /var/lib/shieldline
USER node
EXPOSE 3000
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "server/main.ts"]
