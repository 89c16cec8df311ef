#!/usr/bin/env bash
# Installs what the real-editor tests and `npm start` need, only when it is missing:
#   Debian: chromium (the browser Playwright drives), libkrb5-dev (code-server's kerberos module),
#           ripgrep (stands in for the rg binary code-server's postinstall would download);
#   npm:    code-server 4.100.3 (the last 4.x that runs on Node 20; bundles VS Code 1.100)
#           into .cache/, never as a dependency of the extension.
# Idempotent and safe to run concurrently (a lock serialises installers). Prints the
# code-server binary path as its last line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${CLOUDBENCH_CACHE:-$ROOT/.cache}"
CS_VERSION="4.100.3"
CS_DIR="$CACHE/code-server-$CS_VERSION"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
RG_VERSION="1.15.11"   # @vscode/ripgrep version code-server 4.100.3 pulls in
RG_ASSET="ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"

log() { echo "[install-editor] $*" >&2; }

mkdir -p "$CACHE"
exec 9>"$CACHE/install-editor.lock"
flock 9

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    log "not root and no sudo: install chromium, libkrb5-dev and ripgrep yourself"; fi
fi

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${missing[@]}" >&2
fi

if [ -x "$CS_BIN" ] && [ -f "$CS_DIR/.installed" ]; then
  log "code-server $CS_VERSION already installed"
else
  log "installing code-server $CS_VERSION into $CS_DIR (about a minute)"
  STAGE="$CS_DIR.partial"
  rm -rf "$STAGE"
  mkdir -p "$STAGE/tmp" "$STAGE/xdg/config" "$STAGE/xdg/data" "$STAGE/xdg/cache"
  # A package.json of its own, so npm never walks up into the extension's manifest.
  echo '{"name":"cloudbench-editor-cache","private":true}' >"$STAGE/package.json"
  # @vscode/ripgrep's postinstall looks in $TMPDIR for this archive before it downloads.
  RG_CACHE="$STAGE/tmp/vscode-ripgrep-cache-$RG_VERSION"
  mkdir -p "$RG_CACHE/rg-src"
  cp "$(command -v rg)" "$RG_CACHE/rg-src/rg"
  tar -czf "$RG_CACHE/$RG_ASSET" -C "$RG_CACHE/rg-src" rg
  (
    cd "$STAGE"
    export TMPDIR="$STAGE/tmp" XDG_CONFIG_HOME="$STAGE/xdg/config" XDG_DATA_HOME="$STAGE/xdg/data" \
      XDG_CACHE_HOME="$STAGE/xdg/cache"
    # unsafe_perm: its postinstall refuses root otherwise; yes: node-pty's postinstall runs npx.
    npm_config_unsafe_perm=true npm_config_yes=true npm_config_update_notifier=false \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION" >&2
  )
  rm -rf "$CS_DIR"
  mv "$STAGE" "$CS_DIR"
  touch "$CS_DIR/.installed"
fi

# The bin link is relative to node_modules, so it survives the move from the staging folder.
version="$(TMPDIR="$CS_DIR/tmp" XDG_CONFIG_HOME="$CS_DIR/xdg/config" XDG_DATA_HOME="$CS_DIR/xdg/data" \
  "$CS_BIN" --version 2>/dev/null | grep -m1 -E '^[0-9]+\.[0-9]+' || true)"
case "$version" in
  "$CS_VERSION"*) log "code-server ready: $version" ;;
  *) log "code-server at $CS_BIN does not run (got: '$version')"; exit 1 ;;
esac
# The binary itself: Debian's /usr/bin/chromium launcher prints a stray "[: …: unexpected operator" line.
browser=/usr/bin/chromium; [ -x /usr/lib/chromium/chromium ] && browser=/usr/lib/chromium/chromium
"$browser" --version >&2 || { log "chromium does not run"; exit 1; }
echo "$CS_BIN"
