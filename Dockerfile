# syntax=docker/dockerfile:1
# clew in a container: `docker build -t clew .` then
#   docker run --rm -e ANTHROPIC_API_KEY -v "$PWD:/workspace" clew -p "explain this repository" --output-format json
# The image holds the binary, git and ripgrep (what clew runs besides itself), and a non-root user.

# --- build: compile the single binary with the Bun release the repository is built with --------
FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json bun.lock bunfig.toml tsconfig.json ./
RUN bun install --frozen-lockfile --ignore-scripts
COPY src ./src
COPY scripts ./scripts
# The fake API, the two benchmark tasks and a stdio MCP server: the build runs the binary on them
# to lay out its bytecode by what a session runs (scripts/bytecode-order.ts), which keeps peak
# memory ~3 MiB lower (~1.5 MiB more with an MCP server connected).
COPY test/fake-anthropic ./test/fake-anthropic
COPY test/helpers/clew-process.ts ./test/helpers/
COPY test/scenarios/workspaces.ts test/scenarios/read-grep-task.ts ./test/scenarios/
COPY test/mcp-servers/fixtures/sdk-server.ts ./test/mcp-servers/fixtures/
RUN bun scripts/build.ts /out/clew && /out/clew --version

# --- runtime: Debian slim, the binary, git, ripgrep ------------------------------------------------
FROM debian:trixie-slim
# ca-certificates: git over https (clew's own TLS uses the root certificates built into the binary).
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ripgrep ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# A fixed uid, so Kubernetes' runAsNonRoot can check it and fsGroup can give it the volume.
# safe.directory: a mounted /workspace is usually owned by another uid, which git would refuse.
RUN groupadd --gid 10001 clew \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/clew --shell /bin/bash clew \
 && mkdir /workspace && chown 10001:10001 /workspace \
 && git config --system --add safe.directory /workspace \
 && git config --system --add safe.directory '/workspace/*'
COPY --from=build /out/clew /usr/local/bin/clew
# A container is replaced, never updated in place: no update checks.
ENV HOME=/home/clew DISABLE_AUTOUPDATER=1
USER 10001:10001
WORKDIR /workspace
VOLUME ["/workspace"]
ENTRYPOINT ["clew"]
