# syntax=docker/dockerfile:1
# Reelwright's image, one for every role (tsx runs the TypeScript, no build step), with the media
# tools from Debian. The command picks the role: `src/main.ts api`, `src/main.ts worker`, or no
# argument for both in one process; `src/migrate.ts` migrates the database and exits. NODE_ENV is
# production, so the service refuses to start without DATABASE_URL and a bucket (see README).
# Node 24, an LTS line with upstream support until April 2028 (22's ends April 2027; 20's ended April 2026);
# package.json's engines lists the versions supported.
FROM node:24-bookworm-slim

# ffmpeg (libx264, aac, libass), pocketsphinx and its model (the transcriber of last resort), the speech
# voice, the caption fonts, CA roots for https sources and webhooks, and libgomp1 for the whisper.cpp binding.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates ffmpeg pocketsphinx pocketsphinx-en-us festival festvox-us-slt-hts \
      fonts-dejavu-core fonts-noto-color-emoji fonts-droid-fallback libgomp1 \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data

# Dependencies before the source, so a source change reuses this layer. npm ci installs exactly what
# package-lock.json pins and fails when it is out of sync with package.json (fix that in the commit: run
# npm install and commit the lock). .npmrc holds onnxruntime-node-install=skip: the package's bundled CPU
# runtime is all the text detector uses, and its install step would otherwise download the CUDA provider.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# The whisper.cpp model captions are made with, downloaded at build time and checked against its
# published SHA-1 (`npm run models -- list` shows the others; --build-arg WHISPER_MODEL= builds without
# one, and TRANSCRIBER=auto then picks another engine). It lives outside DATA_DIR, where a mounted volume
# would hide it, and stays root-owned: the service only reads it. WHISPER_MODEL here is a build argument
# naming a catalogue model, not the runtime variable of the same name (a file path).
ARG WHISPER_MODEL=whisper-base.en-q5_1
ENV MODELS_DIR=/opt/reelwright/models
# Only the files the pull runs, so a change elsewhere in the source does not download the model again.
COPY adapters/media/whisper-models.ts adapters/media/
COPY src/kernel/spans.ts src/kernel/
COPY src/models.ts src/
COPY src/models-command.ts src/
RUN if [ -n "$WHISPER_MODEL" ]; then node --import tsx src/models.ts pull "$WHISPER_MODEL"; fi
COPY . .

# The service runs as the unprivileged `node` user. A mounted volume (Fly's included) comes up owned
# by root, so the entrypoint starts as root only to hand DATA_DIR to `node`, then drops to it.
COPY --chmod=755 <<'SH' /usr/local/bin/reelwright-entrypoint
#!/bin/sh
set -e
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$DATA_DIR"
  [ "$(stat -c %U "$DATA_DIR")" = node ] || chown -R node:node "$DATA_DIR"
  HOME=/home/node exec setpriv --reuid=node --regid=node --init-groups -- "$@"
fi
exec "$@"
SH
RUN mkdir -p /data && chown node:node /data

EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/reelwright-entrypoint"]
# Exec form, node as PID 1: SIGTERM reaches the Effect runtime, which closes the listener at once and
# gives running jobs SHUTDOWN_GRACE_SECONDS (stopping ffmpeg children after it) before exiting 0.
CMD ["node", "--import", "tsx", "src/main.ts"]
