# shellcheck shell=bash
# Private services for tests: an Avahi daemon restricted to loopback on a private D-Bus system bus (through
# scripts/lib/avahi.sh), and a cupsd with its own configuration listening on a free loopback port. Nothing here
# touches the machine's own cupsd or advertises beyond loopback. A script started by another one that already
# runs these services (their variables are exported) reuses them and leaves them running.
#
# Usage (from another bash script):
#   source scripts/lib/services.sh
#   services_start_avahi             # exports DBUS_SYSTEM_BUS_ADDRESS and VPRINTER_TEST_AVAHI=1
#   services_start_cupsd             # exports CUPS_SERVER (and CUPS_STATEDIR) for lpadmin, lp, lpstat
#   ...
#   services_stop_all                # also safe to call from an EXIT trap, and more than once
#
# Settings (environment):
#   VP_SERVICES_DIR   folder for the services' configuration, spool and logs (default: a new temp folder)
#   VP_ARTIFACTS      when set, the services' logs are copied there on stop

VP_SERVICES_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/net.sh
source "$VP_SERVICES_LIB_DIR/net.sh"

# Seconds to wait for a service to accept requests before giving up.
readonly VP_SERVICE_START_TIMEOUT=20

VP_CUPSD_PID=""
VP_CUPSD_DIR="${VP_CUPSD_DIR:-}"
VP_AVAHI_STARTED_HERE=""
VP_SERVICES_DIR_OURS=""

# Prints a message on stderr, prefixed with the library's name.
services_log() {
    printf 'services: %s\n' "$*" >&2
}


# Creates (once) the folder that holds every service's files and sets VP_SERVICES_DIR to it. Must run in the
# calling shell (not in $(...)) so that the choice is remembered.
services_init_dir() {
    if [[ -z "${VP_SERVICES_DIR:-}" ]]; then
        VP_SERVICES_DIR="$(mktemp -d -t vprinter-services.XXXXXX)"
        VP_SERVICES_DIR_OURS=1
        export VP_SERVICES_DIR
    fi
    mkdir -p "$VP_SERVICES_DIR"
    # cupsd runs filters and backends as user lp: it must be able to walk into the folder.
    chmod 755 "$VP_SERVICES_DIR"
}

# Waits until the command given as arguments succeeds, at most VP_SERVICE_START_TIMEOUT seconds.
services_wait_for() {
    local deadline=$((SECONDS + VP_SERVICE_START_TIMEOUT))
    until "$@" >/dev/null 2>&1; do
        if ((SECONDS >= deadline)); then
            return 1
        fi
        sleep 0.2
    done
}

# Sends SIGTERM to a process we started, then SIGKILL if it is still there after a few seconds.
services_kill() {
    local pid="$1"
    [[ -n "$pid" ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# Copies a service's log files into VP_ARTIFACTS/services/ (or its subfolder SUBFOLDER), when VP_ARTIFACTS is set.
services_keep_logs() {
    local from="$1" to="${VP_ARTIFACTS:-}/services${2:+/$2}"
    [[ -n "${VP_ARTIFACTS:-}" && -d "$from" ]] || return 0
    mkdir -p "$to"
    cp -r "$from/." "$to/" 2>/dev/null || true
}

# shellcheck source=scripts/lib/cupsd.sh
source "$VP_SERVICES_LIB_DIR/cupsd.sh"
# shellcheck source=scripts/lib/avahi.sh
source "$VP_SERVICES_LIB_DIR/avahi.sh"

# Makes an Avahi daemon restricted to loopback reachable (scripts/lib/avahi.sh: reuses one that answers on the
# bus, else starts a private bus and daemon) and exports VPRINTER_TEST_AVAHI=1 for the Swift tests.
services_start_avahi() {
    vp_avahi_start || return 1
    VP_AVAHI_STARTED_HERE=1
    export VPRINTER_TEST_AVAHI=1
    services_log "avahi-daemon answers on ${DBUS_SYSTEM_BUS_ADDRESS}${VP_AVAHI_DIR:+ (private, files in $VP_AVAHI_DIR)}"
}

# Stops the daemon and bus if services_start_avahi started them in this shell (not if it reused them), keeping
# the daemon's log in VP_ARTIFACTS.
services_stop_avahi() {
    [[ -n "$VP_AVAHI_STARTED_HERE" ]] || return 0
    VP_AVAHI_STARTED_HERE=""
    [[ -z "${VP_AVAHI_DIR:-}" ]] || services_keep_logs "$VP_AVAHI_DIR"
    vp_avahi_stop
}

# Stops every service this library started, keeping their logs, and removes the services' folder if this
# library created it. Safe to call more than once.
services_stop_all() {
    services_stop_cupsd
    services_stop_avahi
    if [[ -n "$VP_SERVICES_DIR_OURS" ]]; then
        rm -rf "$VP_SERVICES_DIR"
        VP_SERVICES_DIR_OURS=""
        unset VP_SERVICES_DIR
    fi
}
