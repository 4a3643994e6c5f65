# shellcheck shell=bash
# Fresh Debian roots for checks that must not see this machine's packages (scripts/package-check): made once per
# suite with mmdebstrap and cached as a tarball, unpacked into a new folder per check, and entered in a private
# mount and PID namespace with their own /proc, /dev and /run, as scripts/fresh-machine-test enters its root.
# The root shares this machine's network, name resolution and local certificate authorities (apt reaches the
# archive); no init system runs there and package scripts start no services (policy-rc.d).
#
# Functions: debian_root_tarball SUITE [PACKAGE...], debian_root_unpack TARBALL FOLDER, debian_root_run ROOT
# COMMAND [ARGUMENT...]. Environment: VP_ROOT_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/vprinter/roots),
# VP_FRESH_MIRRORS (apt sources for mmdebstrap, one-line style separated by '|').

debian_root_say() { printf '%s: %s\n' "${DEBIAN_ROOT_NAME:-debian-root}" "$*" >&2; }

# Prints the path of the cached minbase root of SUITE with PACKAGEs added, making it first when missing.
debian_root_tarball() {
    local suite="$1"
    shift
    local cache="${VP_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vprinter/roots}" key tarball include
    key="$(printf '%s\n' "$suite" "$(dpkg --print-architecture)" "${VP_FRESH_MIRRORS:-}" "$@" | sha256sum | cut -c1-16)"
    tarball="$cache/$suite-minbase-$key.tar"
    mkdir -p "$cache"
    if [[ -s "$tarball" ]]; then
        printf '%s\n' "$tarball"
        return 0
    fi
    local -a mirrors=() options=(--mode=root --variant=minbase --format=tar)
    [[ -z "${VP_FRESH_MIRRORS:-}" ]] || IFS='|' read -r -a mirrors <<<"$VP_FRESH_MIRRORS"
    if (($# > 0)); then
        include="$(IFS=,; printf '%s' "$*")"
        options+=(--include="$include")
    fi
    debian_root_say "making a $suite minbase root with mmdebstrap into $cache"
    if ! mmdebstrap "${options[@]}" "$suite" "$tarball.partial" "${mirrors[@]}" >"$cache/$suite.log" 2>&1; then
        tail -n 20 "$cache/$suite.log" >&2
        rm -f "$tarball.partial"
        debian_root_say "mmdebstrap failed (log: $cache/$suite.log)"
        return 1
    fi
    mv "$tarball.partial" "$tarball"
    printf '%s\n' "$tarball"
}

# Unpacks TARBALL into FOLDER (made) and gives it this machine's network settings.
debian_root_unpack() {
    local tarball="$1" root="$2"
    mkdir -p "$root"
    tar -xf "$tarball" -C "$root" --numeric-owner
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    cp /etc/hosts "$root/etc/hosts"
    if [[ -d /usr/local/share/ca-certificates ]]; then
        mkdir -p "$root/usr/local/share/ca-certificates"
        cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
    fi
    printf '#!/bin/sh\n# No init system runs here: package scripts start no services.\nexit 101\n' \
        >"$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    chmod 1777 "$root/tmp"
}

# What the namespace's first process does: its own /proc, /dev (the host's device nodes bound one by one), /dev/shm
# and /run in the root, then COMMAND there with a clean environment (proxies kept). Everything mounted or started
# ends with the namespace.
# shellcheck disable=SC2016 # expanded by the inner shell
readonly DEBIAN_ROOT_ENTER='
set -eu
root="$1"
shift
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=0755,nosuid tmpfs "$root/dev"
for node in null zero full random urandom tty; do touch "$root/dev/$node"; mount --bind "/dev/$node" "$root/dev/$node"; done
mkdir -p "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
trap "kill -KILL -1 2>/dev/null; exit 143" TERM INT HUP
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
    ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
    ${no_proxy:+no_proxy=$no_proxy} DEBIAN_FRONTEND=noninteractive "$@" </dev/null &
wait $!
'

# Runs COMMAND inside ROOT in a private mount and PID namespace; returns its status.
debian_root_run() {
    local root="$1"
    shift
    unshare --mount --propagation private --pid --fork --kill-child bash -c "$DEBIAN_ROOT_ENTER" enter "$root" "$@"
}
