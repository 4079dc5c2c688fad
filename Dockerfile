# The xroute image (docs/install.md): run `npm ci` first (it compiles dist/), then `docker build -t xroute .`.
# Production dependencies come from package-lock.json; the flow is /etc/xroute/flow.json (mount yours there).
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /opt/xroute
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY dist/src dist/src
COPY dist/actors dist/actors
RUN ln -s /opt/xroute/dist/src/cli/main.js /usr/local/bin/xroute
COPY deploy/flow.json /etc/xroute/flow.json
# The admin endpoint (health, readiness, status, metrics) on every interface of the container.
ENV XROUTE_ADMIN=0.0.0.0:9090
EXPOSE 9090
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD ["node", "-e", "fetch('http://127.0.0.1:9090/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["xroute", "run", "/etc/xroute/flow.json"]
