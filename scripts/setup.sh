#!/usr/bin/env bash
# Sets up a Debian/Ubuntu machine to run Reelwright: the media tools from apt (only those missing),
# the npm dependencies, then the whisper.cpp model for captions. Safe to run again: a second run
# installs nothing new.
#
#   bash scripts/setup.sh [--dry-run] [--with-postgres] [--with-browser]
#
#   --dry-run        print what would be installed and run, change nothing
#   --with-postgres  also install the PostgreSQL server when it is missing
#   --with-browser   also install Chromium, which the tests drive for the sign-in and consent pages
#
# apt's output goes to a log file ($SETUP_LOG, default a temporary file) and is printed only when apt fails.
# SETUP_WHISPER_MODEL picks the model (empty: none); WHISPER_MODELS_URL a mirror of its home.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

dry_run=0
with_postgres=0
with_browser=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry_run=1 ;;
    --with-postgres) with_postgres=1 ;;
    --with-browser) with_browser=1 ;;
    -h | --help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*"; }
fail() { echo "setup: ERROR: $*" >&2; exit 1; }

has_command() { command -v "$1" >/dev/null 2>&1; }

# Runs an apt command with its output in $apt_log; shows that log only when the command fails.
apt_step() {
  if ! "$@" >>"$apt_log" 2>&1 </dev/null; then
    echo "setup: ERROR: '$*' failed. Its log ($apt_log):" >&2
    cat "$apt_log" >&2
    exit 1
  fi
}

# Each Debian package with what proves it is present: commands it installs, or files for data packages.
# A package is installed only when one of its probes is missing.
packages=(
  "ffmpeg            cmd:ffmpeg cmd:ffprobe"
  "pocketsphinx      cmd:pocketsphinx_continuous|cmd:pocketsphinx"
  "pocketsphinx-en-us  path:/usr/share/pocketsphinx/model/en-us"
  "festival          cmd:festival cmd:text2wave"
  "festvox-us-slt-hts  path:/usr/share/festival/voices/us/cmu_us_slt_arctic_hts"
  "fonts-dejavu-core   path:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  "fonts-noto-color-emoji  path:/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
  "fonts-droid-fallback    path:/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
  "openssl           cmd:openssl"
)
if [ "$with_postgres" = 1 ]; then
  # pg_ctlcluster comes from postgresql-common; the server binary from postgresql-NN.
  packages+=("postgresql  cmd:pg_ctlcluster glob:/usr/lib/postgresql/*/bin/postgres")
fi
if [ "$with_browser" = 1 ]; then
  packages+=("chromium  path:/usr/bin/chromium")
fi

# A probe is "kind:target", with "|" between alternatives (any one is enough).
probe_ok() {
  local alternative alternatives
  IFS='|' read -r -a alternatives <<<"$1"
  for alternative in "${alternatives[@]}"; do
    case "$alternative" in
      cmd:*) has_command "${alternative#cmd:}" && return 0 ;;
      path:*) [ -e "${alternative#path:}" ] && return 0 ;;
      glob:*) compgen -G "${alternative#glob:}" >/dev/null && return 0 ;;
    esac
  done
  return 1
}

missing=()
for entry in "${packages[@]}"; do
  read -r -a fields <<<"$entry"
  name="${fields[0]}"
  for probe in "${fields[@]:1}"; do
    if ! probe_ok "$probe"; then
      missing+=("$name")
      break
    fi
  done
done

# Node comes first in the README's requirements; Debian's own nodejs is too old, so it is not installed here.
# The versions package.json's engines field allows: 24 (what the image runs), 22.13+, or 20.19+.
has_command node || fail "Node.js 24 is required (package.json also allows 22.13+ and 20.19+): install it (https://nodejs.org, nvm or NodeSource), then run this again."
has_command npm || fail "npm is missing: it ships with Node.js; reinstall Node.js 24."
node_version="$(node -p 'process.versions.node')"
node_major="${node_version%%.*}"
node_minor="$(echo "$node_version" | cut -d. -f2)"
case "$node_major" in
  24) ;;
  22) [ "$node_minor" -ge 13 ] || fail "Node.js $node_version is too old: Reelwright needs Node.js 24, 22.13 or newer, or 20.19 or newer." ;;
  20)
    [ "$node_minor" -ge 19 ] || fail "Node.js $node_version is too old: Reelwright needs Node.js 24, 22.13 or newer, or 20.19 or newer."
    say "warning: Node.js 20 left upstream support on 30 April 2026; Node.js 24 is recommended."
    ;;
  *)
    [ "$node_major" -gt 24 ] || fail "Node.js $node_version is not supported: Reelwright needs Node.js 24, 22.13 or newer, or 20.19 or newer."
    say "warning: Node.js $node_version is newer than Reelwright is tested with (24, 22, 20); npm ci will warn about package.json's engines."
    ;;
esac

if [ "${#missing[@]}" -eq 0 ]; then
  say "system packages: all present"
else
  say "system packages to install: ${missing[*]}"
  has_command apt-get || fail "apt-get not found: install these packages with your system's package manager: ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then
    as_root=()
  elif has_command sudo; then
    as_root=(sudo)
  else
    fail "installing ${missing[*]} needs root: run this as root or install sudo."
  fi
  apt_update=("${as_root[@]}" apt-get update)
  apt_install=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}")
  if [ "$dry_run" = 1 ]; then
    say "would run: ${apt_update[*]}"
    say "would run: ${apt_install[*]}"
  else
    apt_log="${SETUP_LOG:-$(mktemp -t reelwright-setup-apt.XXXXXX)}"
    say "running apt-get update and apt-get install (log: $apt_log)"
    apt_step "${apt_update[@]}"
    apt_step "${apt_install[@]}"
    say "system packages installed"
  fi
fi

# npm ci installs exactly what package-lock.json pins, and never writes it. A lock out of sync with
# package.json is a mistake in the commit, not something to repair here: npm install would rewrite the lock
# differently on every machine. onnxruntime-node's opt-out from downloading its CUDA provider is in .npmrc.
npm_flags=(--no-audit --no-fund)
[ -f package-lock.json ] || fail "package-lock.json is missing: run 'npm install' and commit package-lock.json."
if [ "$dry_run" = 1 ]; then
  say "would run: npm ci ${npm_flags[*]}"
else
  say "running npm ci ${npm_flags[*]}"
  npm_log="$(mktemp -t reelwright-setup-npm.XXXXXX)"
  if npm ci "${npm_flags[@]}" </dev/null >"$npm_log" 2>&1; then
    cat "$npm_log"
  else
    cat "$npm_log" >&2
    if grep -q "code EUSAGE" "$npm_log"; then
      fail "package-lock.json is out of sync with package.json (npm ci's output above): run 'npm install' and commit package-lock.json."
    fi
    fail "'npm ci' failed (output above)."
  fi
fi

# whisper.cpp captions real speech far better than pocketsphinx; the service uses the model once it is in
# MODELS_DIR (default ./data/models). Without network this is skipped with one line, and setup still succeeds.
# CI needs none (the suite pins pocketsphinx) and reaches no outside host: there it is skipped unless asked for.
whisper_model="${SETUP_WHISPER_MODEL-whisper-base.en-q5_1}"
pull_command="npm run models -- pull $whisper_model"
if [ "${CI:-}" = "true" ] && [ -z "${SETUP_WHISPER_MODEL+set}" ]; then
  say "whisper.cpp model: skipped under CI (set SETUP_WHISPER_MODEL to pull one)"
elif [ -z "$whisper_model" ]; then
  say "whisper.cpp model: skipped (SETUP_WHISPER_MODEL is empty)"
elif [ "$dry_run" = 1 ]; then
  say "would run: $pull_command"
else
  say "downloading the whisper.cpp model $whisper_model (once; resumed if interrupted)"
  pull_log="$(mktemp -t reelwright-setup-model.XXXXXX)"
  # A short connect timeout: offline, this fails in seconds instead of hanging.
  if model_path="$(npm run --silent models -- pull "$whisper_model" --connect-timeout 5 --stall-timeout 30 </dev/null 2>"$pull_log")"; then
    say "whisper.cpp model: $model_path"
  else
    reason="$(grep '^models: ' "$pull_log" | tail -n 1 | sed 's/^models: //')"
    say "could not download the whisper.cpp model (${reason:-see $pull_log}); captions use pocketsphinx until you run: $pull_command"
  fi
fi

if [ "$dry_run" = 1 ]; then
  say "dry run: nothing was changed"
else
  say "done. Start the service with: npm start"
fi
