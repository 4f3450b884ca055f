#!/usr/bin/env bash
# The image recipe without a Docker engine: runs, in a clean temporary folder and as a non-root
# user, the install, build and start commands the Dockerfile runs (it fails first if the
# Dockerfile no longer says them), starts the built service, checks /healthz, /readyz and
# /metrics, and stops it with SIGTERM, which must end it cleanly (exit 0).
# What this does not prove (no engine here): the base image, COPY paths inside the image, the
# HEALTHCHECK as Docker runs it. docs/deploy.md says so.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

# The commands below, exactly as the Dockerfile has them.
BUILD_INSTALL="npm ci --no-audit --no-fund"
BUILD="npm run build"
PROD_INSTALL="npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund"
START='CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "--wasm-tiering-budget=100000000", "dist/src/main.js"]'
for line in "RUN $BUILD_INSTALL" "RUN $BUILD" "RUN $PROD_INSTALL" "$START"; do
  grep -qxF "$line" Dockerfile || { echo "Dockerfile no longer says: $line (update this script with it)" >&2; exit 1; }
done
if [ "$(npm pkg get scripts.build)" = "{}" ]; then
  echo "package.json has no build script: the image recipe needs npm run build" >&2
  exit 1
fi

# Tools this check uses (util-linux's setpriv is in every Debian; curl and ps may not be).
missing=()
command -v curl >/dev/null || missing+=(curl)
command -v ps >/dev/null || missing+=(procps)
if [ "${#missing[@]}" -gt 0 ]; then apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; fi

WORK="$(mktemp -d /tmp/encore-image-XXXXXX)"
chmod 755 "$WORK"
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The service's user: the one running this, or (as root) a system user made for it.
if [ "$(id -u)" -eq 0 ]; then
  RUN_USER=encore-image
  id "$RUN_USER" >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin "$RUN_USER"
  # setpriv execs: the process started through it is the command itself, so $! is node's pid.
  AS_USER=(setpriv --reuid="$RUN_USER" --regid="$RUN_USER" --init-groups
    env HOME="$(getent passwd "$RUN_USER" | cut -d: -f6)")
else
  RUN_USER="$(id -un)"
  AS_USER=()
fi
RUN_UID="$(id -u "$RUN_USER")"
echo "image recipe: building and running as $RUN_USER in $WORK"

# The build context: the checkout's files, less what .dockerignore leaves out (never tracked).
mkdir -p "$WORK/build" "$WORK/deps" "$WORK/app" "$WORK/data"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$WORK/build" -xf -
rm -rf "$WORK/build/node_modules" "$WORK/build/dist" "$WORK/build/.data"
cp package.json package-lock.json "$WORK/deps/"
chown -R "$RUN_USER" "$WORK/build" "$WORK/deps" "$WORK/data"

# Stage "build" and stage "deps".
# shellcheck disable=SC2086 # the commands are words, as in the Dockerfile
(cd "$WORK/build" && "${AS_USER[@]}" $BUILD_INSTALL && "${AS_USER[@]}" $BUILD)
# shellcheck disable=SC2086
(cd "$WORK/deps" && "${AS_USER[@]}" $PROD_INSTALL 2>&1 | tee "$WORK/deps.log")
# No development tool in the image (the prisma CLI is about 130 MB), no engine warning.
[ ! -e "$WORK/deps/node_modules/prisma" ] || { echo "the production install holds the prisma CLI" >&2; exit 1; }
! grep -q EBADENGINE "$WORK/deps.log" || { echo "the production install printed EBADENGINE warnings" >&2; exit 1; }
echo "image recipe: production node_modules $(du -sm "$WORK/deps/node_modules" | cut -f1) MB"

# Stage "runtime": the code stays owned by whoever built the image, the service only reads it.
cp -a "$WORK/deps/node_modules" "$WORK/app/node_modules"
cp -a "$WORK/build/dist" "$WORK/app/dist"
cp "$WORK/build/package.json" "$WORK/app/"
if [ "$(id -u)" -eq 0 ]; then chown -R root:root "$WORK/app"; fi

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
PORT="$(free_port)"
METRICS_PORT="$(free_port)"
cd "$WORK/app"
started=$(date +%s%N)
"${AS_USER[@]}" env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" METRICS_HOST=127.0.0.1 \
  METRICS_PORT="$METRICS_PORT" DATA_DIR="$WORK/data" LOG_LEVEL=info \
  node --max-semi-space-size=8 --max-old-space-size=256 --wasm-tiering-budget=100000000 dist/src/main.js >"$WORK/service.log" 2>&1 &
PID=$!

ready=""
for _ in $(seq 1 300); do
  if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$ready" ]; then
  cat "$WORK/service.log" >&2
  echo "the built service did not become ready" >&2
  exit 1
fi
echo "image recipe: ready in $(( ($(date +%s%N) - started) / 1000000 )) ms (first start: migrations on an empty database)"
# Each answer is read whole before it is matched: grep -q stops reading at its first match,
# and under pipefail the writer's SIGPIPE (curl exit 23) would fail the check.
expect_line() { # URL LINE: the answer at URL has LINE as one of its lines
  local body
  body="$(curl -fsS "$1")" || { echo "$1 failed" >&2; exit 1; }
  grep -qxF "$2" <<<"$body" || { printf '%s answered, without the line "%s":\n%s\n' "$1" "$2" "$body" >&2; exit 1; }
}
expect_line "http://127.0.0.1:$PORT/healthz" ok
expect_line "http://127.0.0.1:$PORT/readyz" ready
code="$(curl -sS -o /dev/null -w '%{http_code}' -XPOST "http://127.0.0.1:$PORT/v1/public/funding:get" \
  -H 'content-type: application/json' -d '{"campaignKey":"nope"}')"
[ "$code" = 404 ] || { echo "funding:get of an unknown campaign answered $code, not 404" >&2; exit 1; }
metrics="$(curl -fsS "http://127.0.0.1:$METRICS_PORT/metrics")"
grep -qF 'encore_rpc_requests_total{method="encore.campaign.v1.CampaignService/GetPublicFunding",code="not_found"} 1' <<<"$metrics" ||
  { echo "/metrics does not count the refused funding:get" >&2; exit 1; }
# The service's process runs as the service's user, never root.
[ "$(ps -o uid= -p "$PID" | tr -d ' ')" = "$RUN_UID" ] || { echo "the service does not run as $RUN_USER" >&2; exit 1; }
[ "$(ps -o comm= -p "$PID")" = "node" ] || { echo "the signalled process is not node itself" >&2; exit 1; }

kill -TERM "$PID"
status=0
wait "$PID" || status=$?
PID=""
if [ "$status" -ne 0 ] || ! grep -q '"msg":"stopped"' "$WORK/service.log"; then
  cat "$WORK/service.log" >&2
  echo "SIGTERM did not stop the service cleanly (exit $status)" >&2
  exit 1
fi
echo "image recipe: healthz, readyz and metrics answered; SIGTERM stopped it cleanly"
