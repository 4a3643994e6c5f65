# shellcheck shell=bash
# Private services for tests, for bash scripts: an Avahi daemon restricted to loopback on a private D-Bus system bus,
# and a cupsd with its own configuration listening on a free loopback port. The test harness starts and stops them
# (scripts/harness/vptest/services/, run here under the system python3); these functions put its variables into
# the calling shell. A script started by another one that already runs these services (their variables are
# exported) reuses them and leaves them running: each shell stops only what it started itself (VP_AVAHI_OWNED,
# VP_CUPSD_OWNED, set in that shell and not exported).
#
# Usage (from another bash script):
#   source scripts/lib/services.sh
#   services_start_avahi   # exports DBUS_SYSTEM_BUS_ADDRESS, VP_AVAHI_DIR (the private daemon's folder) and
#                          # VPRINTER_TEST_AVAHI=1
#   services_start_cupsd   # exports CUPS_SERVER, CUPS_STATEDIR and VP_CUPSD_DIR for lpadmin, lp, lpstat
#   ...
#   services_stop_all      # also safe to call from an EXIT trap, and more than once
#
# Settings (environment): VP_SERVICES_DIR (where the services' folders are made and kept; default: a temp folder,
# removed on stop) and VP_ARTIFACTS (the services' logs are copied to VP_ARTIFACTS/services/ on stop).

VP_SERVICES_HARNESS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../harness" && pwd)"

# Runs `python3 -m vptest.services ARGUMENTS...` (its usage: scripts/harness/vptest/services/__main__.py) and
# evaluates the shell lines it prints in the calling shell; returns 1, changing nothing, when it fails.
services_run() {
    local lines
    lines="$(PYTHONPATH="$VP_SERVICES_HARNESS${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 -m vptest.services "$@")" ||
        return 1
    eval "$lines"
}

# Makes an Avahi daemon restricted to loopback reachable: reuses the private one a parent script exported, else
# starts a private bus and daemon (a daemon the machine runs is never used: vptest/services/avahi_daemon.py).
services_start_avahi() {
    services_run start avahi
}

# Starts the private cupsd (or reuses the one a parent script exported) and waits until it answers. Its logs are
# kept in VP_ARTIFACTS/services/cupsd-SCRIPT (each stage of the test command has its own cupsd).
services_start_cupsd() {
    services_run start cupsd --logs-as "cupsd-${0##*/}"
}

# Stops every service this shell started, keeping their logs. Safe to call more than once.
services_stop_all() {
    local status=0
    if [[ -n "${VP_CUPSD_OWNED:-}" ]]; then
        services_run stop cupsd --logs-as "cupsd-${0##*/}" || status=1
    fi
    if [[ -n "${VP_AVAHI_OWNED:-}" ]]; then
        services_run stop avahi || status=1
    fi
    return "$status"
}
