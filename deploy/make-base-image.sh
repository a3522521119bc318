#!/bin/sh
# Makes a Debian bookworm base image from Debian's own packages (debootstrap), for machines that cannot pull one,
# and imports it into podman as localhost/debian-bookworm-base. Pass it to the image build:
#   podman build --build-arg BASE_IMAGE=localhost/debian-bookworm-base -f deploy/Containerfile .
# PODMAN may name the command with its options, e.g. PODMAN="podman --storage-driver=vfs".
set -eu
podman=${PODMAN:-podman}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror"
# The image's apt starts from an empty list, like the official image's.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
tar -C "$root" -c . | $podman import --change 'CMD ["/bin/bash"]' - localhost/debian-bookworm-base
