# shellcheck shell=bash
# The container image of the Containerfile, built with podman on this machine (scripts/container-test): a Debian 12
# slim base made with mmdebstrap (no image registry is reachable) and cached, the Swift toolchain on PATH mounted
# into the build stage read-only, and the settings podman needs here to run containers.
#
#   source scripts/lib/container-image.sh
#   base="$(container_base_image)"          # made (cached) and imported when podman lacks it
#   container_choose_settings "$base"       # sets CONTAINER_PODMAN_FLAGS and CONTAINER_RUN_FLAGS
#   container_build_image "$base"           # builds CONTAINER_IMAGE
#
# Logs go to CONTAINER_LOGS (set it first: a folder). A failure ends the script with "NAME: FAIL: cause" (NAME is
# STAGE_NAME of scripts/lib/pytest-stage.sh).
# Environment:
#   VP_CONTAINER_CACHE   folder of the cached base tarball (default: ${XDG_CACHE_HOME:-$HOME/.cache}/vprinter/container)
#   VP_CONTAINER_MIRRORS apt sources for mmdebstrap, one-line style separated by '|' (default: mmdebstrap's)

CONTAINER_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly CONTAINER_IMAGE=localhost/vprinter:test
readonly CONTAINER_SUITE=bookworm
# Part of the base's cache key: raise it when the way the base is made changes.
readonly CONTAINER_BASE_FORMAT=1
# What makes a Debian 12 "slim" base, as the official debian:bookworm-slim image is: the minbase variant with
# merged /usr (no usrmerge package), without documentation, manual pages and translations, no apt lists.
readonly CONTAINER_BASE_OPTIONS=(
    --mode=root --variant=minbase --format=tar --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
    --aptopt='Apt::Install-Recommends "false"'
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*'
    --dpkgopt='path-exclude=/usr/share/info/*'
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
)
# Seconds the build may take (a cold release build of both binaries is about 10 minutes here).
readonly CONTAINER_BUILD_TIME_LIMIT=2400
CONTAINER_LOGS="${CONTAINER_LOGS:-}"
CONTAINER_PODMAN_FLAGS=()
CONTAINER_RUN_FLAGS=()

container_say() { printf '%s: %s\n' "${STAGE_NAME:-container}" "$*" >&2; }
container_die() { container_say "FAIL: $*"; exit 1; }

# container_choose_settings BASE: how podman must run containers on this machine. Each setting is found by trying
# it, so a host where the defaults work keeps them:
# - runtime: crun refuses a hybrid cgroup layout (cgroup v1 controllers with a cgroup2 hierarchy that still has
#   controllers: "cgroups in hybrid mode not supported"), which this kind of VM has; runc runs there.
# - ulimits: podman asks for RLIMIT_NOFILE 1048576 and RLIMIT_NPROC 32768 in each container; without
#   CAP_SYS_RESOURCE (as in this sandbox) raising a hard limit fails, so the container gets this shell's own.
container_choose_settings() {
    local base="$1" nofile nproc log="$CONTAINER_LOGS/podman-probe.log"
    nofile="$(ulimit -Hn)"
    nproc="$(ulimit -Hu)"
    [[ "$nofile" == unlimited || "$nofile" -gt 1048576 ]] && nofile=1048576
    [[ "$nproc" == unlimited || "$nproc" -gt 32768 ]] && nproc=32768
    CONTAINER_RUN_FLAGS=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
    if podman run --rm "${CONTAINER_RUN_FLAGS[@]}" "$base" true >"$log" 2>&1; then
        container_say "podman runs containers with its default runtime (ulimits nofile=$nofile nproc=$nproc)"
        return 0
    fi
    container_say "the default runtime cannot run a container: $(tail -n1 "$log")"
    if command -v runc >/dev/null &&
        podman --runtime runc run --rm "${CONTAINER_RUN_FLAGS[@]}" "$base" true >>"$log" 2>&1; then
        CONTAINER_PODMAN_FLAGS=(--runtime runc)
        container_say "using runc instead (ulimits nofile=$nofile nproc=$nproc)"
        return 0
    fi
    container_die "podman cannot run a container here: $(tail -n1 "$log")"
}

# The cache key of the base: everything that decides what mmdebstrap puts into it.
container_base_key() {
    printf '%s\n' "$CONTAINER_BASE_FORMAT" "$CONTAINER_SUITE" "$(dpkg --print-architecture)" \
        "${VP_CONTAINER_MIRRORS:-}" "${CONTAINER_BASE_OPTIONS[@]}" | sha256sum | cut -c1-16
}

# container_base_image: prints the name of the base image, making (mmdebstrap, cached) and importing it first when
# podman lacks it.
container_base_image() {
    local key cache tarball image
    key="$(container_base_key)"
    image="localhost/vprinter-base:$CONTAINER_SUITE-slim-$key"
    if podman image exists "$image"; then
        printf '%s\n' "$image"
        return 0
    fi
    cache="${VP_CONTAINER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vprinter/container}"
    tarball="$cache/$CONTAINER_SUITE-slim-$key.tar"
    mkdir -p "$cache"
    if [[ ! -s "$tarball" ]]; then
        local -a mirrors=()
        [[ -z "${VP_CONTAINER_MIRRORS:-}" ]] || IFS='|' read -r -a mirrors <<<"$VP_CONTAINER_MIRRORS"
        local start=$SECONDS
        container_say "making the Debian 12 slim base with mmdebstrap into $cache"
        if ! mmdebstrap "${CONTAINER_BASE_OPTIONS[@]}" "$CONTAINER_SUITE" "$tarball.partial" "${mirrors[@]}" \
            >"$CONTAINER_LOGS/mmdebstrap.log" 2>&1; then
            tail -n 20 "$CONTAINER_LOGS/mmdebstrap.log" >&2
            rm -f "$tarball.partial"
            container_die "mmdebstrap failed: $(tail -n1 "$CONTAINER_LOGS/mmdebstrap.log")"
        fi
        mv "$tarball.partial" "$tarball"
        find "$cache" -maxdepth 1 -name "$CONTAINER_SUITE-slim-*.tar" ! -path "$tarball" -delete
        container_say "base made in $((SECONDS - start)) s ($(du -h "$tarball" | cut -f1))"
    fi
    podman import --change 'CMD ["/bin/bash"]' "$tarball" "$image" >"$CONTAINER_LOGS/import.log" 2>&1 ||
        container_die "podman import failed: $(tail -n1 "$CONTAINER_LOGS/import.log")"
    printf '%s\n' "$image"
}

# The folder of the Swift toolchain on PATH (the one holding usr/bin/swift), mounted at /toolchain to build.
container_toolchain_dir() {
    local swift dir
    swift="$(command -v swift)" || container_die "the Swift toolchain is not on PATH"
    dir="$(dirname "$(dirname "$(readlink -f "$swift")")")"
    [[ "$(basename "$dir")" == usr ]] && dir="$(dirname "$dir")"
    case "$dir" in
    / | /usr | /usr/local | "")
        container_die "swift is $swift: the toolchain must live in a folder of its own to be mounted" ;;
    esac
    printf '%s\n' "$dir"
}

# container_build_image BASE: builds CONTAINER_IMAGE, the Containerfile's last stage, on BASE with the toolchain
# mounted (at most CONTAINER_BUILD_TIME_LIMIT seconds; its log in CONTAINER_LOGS/build-image.log).
container_build_image() {
    local base="$1" toolchain
    toolchain="$(container_toolchain_dir)"
    container_say "building $CONTAINER_IMAGE from Containerfile on $base, the toolchain of $toolchain mounted read-only"
    container_build_stage "$base" image "$CONTAINER_IMAGE" "$CONTAINER_REPO" --volume "$toolchain:/toolchain:ro"
    container_say "image: $(podman image inspect --format '{{.Size}}' "$CONTAINER_IMAGE" |
        awk '{printf "%.0f MB", $1 / 1e6}')"
}

# The image of the test command's own binaries (Containerfile target prebuilt, scripts/image-test).
readonly CONTAINER_PREBUILT_IMAGE=localhost/vprinter:prebuilt

# container_build_stage BASE TARGET TAG CONTEXT [PODMAN-BUILD-OPTION...]: podman build of one target of the
# Containerfile (at most CONTAINER_BUILD_TIME_LIMIT seconds; its log in CONTAINER_LOGS/build-TARGET.log).
container_build_stage() {
    local base="$1" target="$2" tag="$3" context="$4" start=$SECONDS
    shift 4
    if ! timeout --kill-after=30 "$CONTAINER_BUILD_TIME_LIMIT" podman "${CONTAINER_PODMAN_FLAGS[@]}" build \
        --format docker "${CONTAINER_RUN_FLAGS[@]}" --build-arg BASE_IMAGE="$base" --target "$target" "$@" \
        --tag "$tag" --file "$CONTAINER_REPO/Containerfile" "$context" >"$CONTAINER_LOGS/build-$target.log" 2>&1; then
        tail -n 30 "$CONTAINER_LOGS/build-$target.log" >&2
        container_die "podman build --target $target failed: $(grep -m1 -E '^(Error|error):' \
            "$CONTAINER_LOGS/build-$target.log" || tail -n1 "$CONTAINER_LOGS/build-$target.log")"
    fi
    container_say "target $target built in $((SECONDS - start)) s"
}

# container_build_prebuilt BASE BINARY: builds CONTAINER_PREBUILT_IMAGE from the vprinter BINARY and the
# vprinter-render beside it, the Swift runtime libraries they load (from the toolchain) and the shared data.
container_build_prebuilt() {
    local base="$1" binary="$2" context
    context="$(mktemp -d)"
    local root="$context/prebuilt/usr/local"
    mkdir -p "$root/bin" "$root/lib/vprinter-swift" "$root/share/vprinter"
    cp "$binary" "$(dirname "$binary")/vprinter-render" "$root/bin/"
    ldd "$root/bin/vprinter" "$root/bin/vprinter-render" |
        awk -v toolchain="$(container_toolchain_dir)/" 'index($3, toolchain) == 1 { print $3 }' | sort -u |
        xargs -r cp -t "$root/lib/vprinter-swift/"
    cp -r "$CONTAINER_REPO/profiles" "$CONTAINER_REPO/scenarios" "$CONTAINER_REPO/fonts" "$root/share/vprinter/"
    container_build_stage "$base" prebuilt "$CONTAINER_PREBUILT_IMAGE" "$context"
    rm -rf "$context"
}
