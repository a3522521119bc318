#!/bin/sh
# Builds the container image (deploy/Containerfile) and tests it: on a local Debian base (deploy/make-base-image.sh)
# when none can be pulled, with podman's vfs storage. Where `podman run` is refused (a sandbox whose runtime cannot
# set the container's limits), the image's root filesystem is exported and its entry command run in it with chroot,
# as the image's user, until it answers /readyz; its healthcheck command is run there too, and a SIGTERM must stop it
# cleanly. Run from the repository's root as root: deploy/test-image.sh
set -eu
cd "$(dirname "$0")/.."
podman="podman --storage-driver=vfs"
base=localhost/debian-bookworm-base
image=localhost/events-site:test
work=$(mktemp -d)
rootfs="$work/rootfs"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  for mount in "$rootfs/proc" "$rootfs/dev"; do mountpoint -q "$mount" && umount -l "$mount"; done
  $podman rm -f events-site-test >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

if ! $podman image exists "$base"; then
  step "making the base image from Debian's packages"
  PODMAN="$podman" deploy/make-base-image.sh
fi

step "building the image"
started=$(date +%s)
# chroot isolation: crun cannot create the build's containers here (cgroups in hybrid mode). The machine's CA bundle is
# the build secret, for a network whose TLS is intercepted.
$podman build --isolation chroot --format docker --network host --build-arg "BASE_IMAGE=$base" \
  --secret "id=extra-ca,src=${EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" -f deploy/Containerfile -t "$image" .
echo "built in $(( $(date +%s) - started )) s"

step "what the image declares"
$podman image inspect "$image" --format '{{.Config.User}} {{json .Config.Entrypoint}} {{json .Config.Healthcheck.Test}}' | tee "$work/inspect"
grep -q '^events \["/srv/events/scripts/serve"\] \["CMD","node","-e",' "$work/inspect" || fail "the image's user, entry command or healthcheck"

step "podman run (refused on some sandboxes)"
if $podman run --rm --network host "$image" --version >"$work/run.log" 2>&1; then echo "podman run works"; else echo "podman run refused: $(tail -1 "$work/run.log")"; fi

step "exporting the root filesystem"
$podman create --name events-site-test "$image" >/dev/null
mkdir "$rootfs"
$podman export events-site-test | tar -x -C "$rootfs"
[ "$(chroot "$rootfs" /usr/local/bin/node --version | cut -d. -f1)" = v24 ] || fail "Node 24 in the image"
# The bundled server needs no node_modules but the few packages copied beside it.
[ ! -e "$rootfs/srv/events/node_modules" ] || fail "a node_modules in /srv/events: the image should hold only the bundle"
bundled="$rootfs/srv/events/apps/site/build/bundle/node_modules"
for tool in vite vitest typescript @playwright eslint sanity; do
  if [ -e "$bundled/$tool" ]; then fail "a development dependency in the image: $tool"; fi
done
echo "Node $(chroot "$rootfs" /usr/local/bin/node --version), $(ls "$bundled" | wc -l) packages beside the bundle, no development ones"
echo "image size: $($podman image inspect "$image" --format '{{.Size}}' | awk '{ printf "%.0f MB", $1 / 1000000 }')"

step "running its entry command as its user, in its root filesystem"
mount -t proc proc "$rootfs/proc"
mount --bind /dev "$rootfs/dev"
port=$(( 20000 + $$ % 20000 )); health=$(( port + 1 ))
chroot --userspec=10001:10001 "$rootfs" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin NODE_ENV=production HOST=127.0.0.1 \
  PORT=$port HEALTH_PORT=$health DATA_DIR=/var/lib/events NODE_COMPILE_CACHE=/tmp/node-compile-cache \
  /srv/events/scripts/serve >"$work/site.log" 2>&1 &
server_pid=$!
started=$(date +%s)
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/site.log"; fail "the site exited"; }
  [ $(( $(date +%s) - started )) -lt 120 ] || { cat "$work/site.log"; fail "no /readyz 200 within 120 s"; }
  sleep 0.2
done
echo "/readyz: $(curl -s "http://127.0.0.1:$port/readyz") after $(( $(date +%s) - started )) s; on HEALTH_PORT: $(curl -s "http://127.0.0.1:$health/readyz")"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/conference/Resilience")" = 200 ] || fail "an event page"
chroot --userspec=10001:10001 "$rootfs" /usr/local/bin/node -e "fetch('http://127.0.0.1:$health/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" || fail "the healthcheck command"
echo "healthcheck command: passed"

step "SIGTERM"
kill -TERM "$server_pid"
wait "$server_pid" && code=0 || code=$?
server_pid=
[ "$code" = 0 ] || { cat "$work/site.log"; fail "exit code $code after SIGTERM"; }
grep -q 'SIGTERM received: draining' "$work/site.log" || fail "the drain"
echo "stopped cleanly (exit 0)"
echo "IMAGE TEST PASSED"
