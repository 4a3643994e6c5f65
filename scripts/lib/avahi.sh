# shellcheck shell=bash
# Private Avahi for tests: a D-Bus system bus and an avahi-daemon that only uses the loopback interface.
#
# Source this file, then:
#   vp_avahi_start            reuse a daemon reachable on the bus, or start a private bus and daemon
#   vp_avahi_restart_daemon   stop and start the private daemon (the bus stays up)
#   vp_avahi_stop_daemon      stop the private daemon only (to test "no daemon")
#   vp_avahi_start_daemon     start it again
#   vp_avahi_stop_bus         stop the private bus too (to test "no bus"), vp_avahi_start_bus to start it
#   vp_avahi_stop             stop whatever vp_avahi_start started
#   vp_avahi_reachable_as U   true when user U (CUPS's backends run as lp) reaches the daemon too
#
# vp_avahi_start exports DBUS_SYSTEM_BUS_ADDRESS and VP_AVAHI_DIR (the private state folder, empty when a
# running daemon was reused) so that child processes, and the Swift tests, reach the same daemon.
# The daemon's configuration allows the loopback interface only and no wide-area DNS-SD, so nothing is
# advertised beyond this machine. Starting a daemon needs root (avahi keeps its pid file in /run).

# How long to wait for the bus or the daemon to answer, in tenths of a second.
VP_AVAHI_WAIT_TENTHS=${VP_AVAHI_WAIT_TENTHS:-100}
# Per-client and cache limits of the test daemon (Avahi's defaults: 1024 objects per client, 32 entries per
# entry group, 4096 cached records per interface).
VP_AVAHI_OBJECTS_PER_CLIENT=${VP_AVAHI_OBJECTS_PER_CLIENT:-8192}
VP_AVAHI_ENTRIES_PER_GROUP=${VP_AVAHI_ENTRIES_PER_GROUP:-64}
VP_AVAHI_CACHE_ENTRIES=${VP_AVAHI_CACHE_ENTRIES:-65536}

# True when an avahi-daemon answers on the system bus named by DBUS_SYSTEM_BUS_ADDRESS (or the default bus).
vp_avahi_reachable() {
    dbus-send --system --print-reply --reply-timeout=2000 --dest=org.freedesktop.Avahi / \
        org.freedesktop.Avahi.Server.GetVersionString >/dev/null 2>&1
}

# True when USER (e.g. lp, as which CUPS runs its backends) reaches the daemon on the same bus as vp_avahi_reachable.
vp_avahi_reachable_as() {
    local user="$1"
    command -v setpriv >/dev/null 2>&1 || return 1
    setpriv --reuid="$user" --regid="$user" --clear-groups \
        env DBUS_SYSTEM_BUS_ADDRESS="${DBUS_SYSTEM_BUS_ADDRESS:-unix:path=/run/dbus/system_bus_socket}" \
        dbus-send --system --print-reply --reply-timeout=2000 --dest=org.freedesktop.Avahi / \
        org.freedesktop.Avahi.Server.GetVersionString >/dev/null 2>&1
}

# Lets avahi-daemon send and receive mDNS on lo: loopback has no MULTICAST flag by default, and IPv6
# multicast needs a route on lo. Both changes are local to this machine.
_vp_avahi_prepare_loopback() {
    command -v ip >/dev/null 2>&1 || return 0
    ip link set lo multicast on 2>/dev/null || true
    if ! ip -6 route show table local 2>/dev/null | grep '^multicast ff00::/8 dev lo' >/dev/null; then
        ip -6 route add multicast ff00::/8 dev lo table local 2>/dev/null || true
    fi
}

_vp_avahi_write_configs() {
    cat >"$VP_AVAHI_DIR/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$VP_AVAHI_DIR/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
    cat >"$VP_AVAHI_DIR/avahi-daemon.conf" <<CONF
[server]
allow-interfaces=lo
use-ipv4=yes
use-ipv6=yes
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
# Fleets (docs/dnssd.md "Many printers"): vprinter is one D-Bus client with one entry group per printer, and
# Avahi's defaults allow a client 1024 objects (entry groups, browsers, resolvers) and an entry group 32
# resource records. Raised so that a test fleet of thousands of printers is advertised whole.
objects-per-client-max=$VP_AVAHI_OBJECTS_PER_CLIENT
entries-per-entry-group-max=$VP_AVAHI_ENTRIES_PER_GROUP
cache-entries-max=$VP_AVAHI_CACHE_ENTRIES

[wide-area]
enable-wide-area=no

[publish]
publish-workstation=no
publish-hinfo=no

[reflector]
enable-reflector=no
CONF
}

# Seconds a process we stop may take to exit after SIGTERM, and again after SIGKILL.
VP_AVAHI_END_SECONDS=${VP_AVAHI_END_SECONDS:-3}

# True while process $1 exists and has not exited (a zombie has exited: its parent just has not reaped it).
# Reads /proc directly, the same process-id namespace that kill uses.
_vp_avahi_alive() {
    local stat
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
    stat="${stat##*) }"
    [ "${stat%% *}" != Z ]
}

# Ends a process we started: SIGTERM, then SIGKILL if it is still there after a few seconds (a process
# started with SIGTERM blocked, as some parents leave it, would otherwise never end). Bounded: a process that
# survives SIGKILL for VP_AVAHI_END_SECONDS (stuck in the kernel) is reported and left.
_vp_avahi_end() {
    local pid="$1" i=0 tenths=$((VP_AVAHI_END_SECONDS * 10))
    kill -TERM "$pid" 2>/dev/null || return 0
    while _vp_avahi_alive "$pid" && [ "$i" -lt "$tenths" ]; do
        i=$((i + 1))
        sleep 0.1
    done
    _vp_avahi_alive "$pid" || return 0
    kill -KILL "$pid" 2>/dev/null || true
    i=0
    while _vp_avahi_alive "$pid" && [ "$i" -lt "$tenths" ]; do
        i=$((i + 1))
        sleep 0.1
    done
    if _vp_avahi_alive "$pid"; then
        echo "_vp_avahi_end: process $pid is still there $VP_AVAHI_END_SECONDS s after SIGKILL" >&2
        return 1
    fi
}

# Closes every descriptor above 2 of the calling (sub)shell. A daemon started from a test must not keep a
# copy of its starter's pipes and sockets: it outlives the starter, and a test reading a pipe to its end, or
# waiting for a socket's peer to close, would wait for the daemon instead.
_vp_avahi_close_inherited() {
    local fd
    for fd in /proc/self/fd/*; do
        fd="${fd##*/}"
        [ "$fd" -gt 2 ] 2>/dev/null || continue
        eval "exec $fd>&-" 2>/dev/null || true
    done
}

# Starts the private avahi-daemon on the private bus and waits until it answers.
vp_avahi_start_daemon() {
    if [ -z "${VP_AVAHI_DIR:-}" ]; then
        echo "vp_avahi_start_daemon: no private daemon (VP_AVAHI_DIR is not set)" >&2
        return 1
    fi
    local -a daemon=(avahi-daemon --file="$VP_AVAHI_DIR/avahi-daemon.conf" --no-chroot --no-drop-root
        --no-rlimits --no-proc-title)
    # avahi-daemon keeps its pid file in /run/avahi-daemon whatever its configuration says, so a daemon
    # already running for another bus would make ours refuse to start: ours then gets its own
    # /run/avahi-daemon in a private mount namespace.
    mkdir -p /run/avahi-daemon
    if avahi-daemon --check 2>/dev/null; then
        # shellcheck disable=SC2016 # $0 and $@ belong to the inner shell.
        daemon=(unshare --mount --propagation private sh -c
            'mount -t tmpfs -o mode=0755 tmpfs /run/avahi-daemon && exec "$0" "$@"' "${daemon[@]}")
    fi
    (_vp_avahi_close_inherited && exec "${daemon[@]}") >>"$VP_AVAHI_DIR/avahi-daemon.log" 2>&1 </dev/null &
    echo $! >"$VP_AVAHI_DIR/avahi-daemon.pid"
    local i=0
    until vp_avahi_reachable; do
        i=$((i + 1))
        if [ "$i" -gt "$VP_AVAHI_WAIT_TENTHS" ] || ! kill -0 "$(cat "$VP_AVAHI_DIR/avahi-daemon.pid")" 2>/dev/null; then
            echo "vp_avahi_start_daemon: avahi-daemon did not come up; its log:" >&2
            tail -n 20 "$VP_AVAHI_DIR/avahi-daemon.log" >&2
            return 1
        fi
        sleep 0.1
    done
}

# Stops the private avahi-daemon (SIGTERM) and waits until it has exited.
vp_avahi_stop_daemon() {
    local pidfile="${VP_AVAHI_DIR:-}/avahi-daemon.pid"
    [ -n "${VP_AVAHI_DIR:-}" ] && [ -f "$pidfile" ] || return 0
    local pid
    pid=$(cat "$pidfile")
    rm -f "$pidfile"
    _vp_avahi_end "$pid"
}

# Kills and starts the private avahi-daemon again, as a package upgrade or a crash would.
vp_avahi_restart_daemon() {
    if [ -z "${VP_AVAHI_DIR:-}" ]; then
        echo "vp_avahi_restart_daemon: the daemon in use was not started by vp_avahi_start" >&2
        return 1
    fi
    vp_avahi_stop_daemon && vp_avahi_start_daemon
}

# Makes an avahi-daemon reachable: reuses one already on the bus, else starts a private bus and daemon.
vp_avahi_start() {
    if vp_avahi_reachable; then
        # A private daemon that a parent script started (it exported both variables) stays known, so that
        # vp_avahi_restart_daemon works here too; vp_avahi_stop leaves it to the parent (VP_AVAHI_OWNED).
        if [ -z "${VP_AVAHI_DIR:-}" ] ||
            [ "${DBUS_SYSTEM_BUS_ADDRESS:-}" != "unix:path=$VP_AVAHI_DIR/system_bus_socket" ]; then
            export VP_AVAHI_DIR=""
        fi
        # A parent's folder made before the folder was opened to lp (see below) is opened here.
        [ -z "$VP_AVAHI_DIR" ] || chmod 0755 "$VP_AVAHI_DIR" 2>/dev/null || true
        export DBUS_SYSTEM_BUS_ADDRESS="${DBUS_SYSTEM_BUS_ADDRESS:-unix:path=/run/dbus/system_bus_socket}"
        return 0
    fi
    VP_AVAHI_OWNED=1
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/vprinter-avahi.XXXXXX") || return 1
    # The bus socket lives in this folder, and CUPS runs its backends as user lp: they resolve a printer's
    # DNS-SD URI through this bus, so lp must be able to walk into the folder (mktemp makes it 0700, and then
    # avahi_client_new fails with "Access denied" and the ipp backend with "Unable to locate printer").
    # Nothing in it is secret; the bus policy lets any local user talk to the daemon.
    chmod 0755 "$dir" || return 1
    export VP_AVAHI_DIR="$dir"
    _vp_avahi_write_configs
    _vp_avahi_prepare_loopback
    vp_avahi_start_bus || return 1
    export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$VP_AVAHI_DIR/system_bus_socket"
    vp_avahi_start_daemon
}

# Starts the private D-Bus system bus (again) on its socket in VP_AVAHI_DIR.
vp_avahi_start_bus() {
    # The bus forks into the background: it must not keep the caller's output, nor any other descriptor of
    # the caller, open (dbus-daemon closes none of them).
    (_vp_avahi_close_inherited &&
        exec dbus-daemon --config-file="$VP_AVAHI_DIR/bus.conf" --fork --nopidfile --print-pid=3 \
            3>"$VP_AVAHI_DIR/dbus.pid") </dev/null >>"$VP_AVAHI_DIR/dbus.log" 2>&1 ||
        { echo "vp_avahi_start_bus: dbus-daemon did not start" >&2; return 1; }
}

# Stops the private D-Bus system bus (and so the daemon loses it too), to test "no bus at all".
vp_avahi_stop_bus() {
    [ -n "${VP_AVAHI_DIR:-}" ] && [ -f "$VP_AVAHI_DIR/dbus.pid" ] || return 0
    local pid
    pid=$(cat "$VP_AVAHI_DIR/dbus.pid")
    rm -f "$VP_AVAHI_DIR/dbus.pid"
    _vp_avahi_end "$pid"
    rm -f "$VP_AVAHI_DIR/system_bus_socket"
}

# Stops the daemon and bus that vp_avahi_start started in this shell; a reused daemon is left alone.
vp_avahi_stop() {
    [ -n "${VP_AVAHI_DIR:-}" ] && [ -n "${VP_AVAHI_OWNED:-}" ] || return 0
    VP_AVAHI_OWNED=""
    vp_avahi_stop_daemon
    vp_avahi_stop_bus
    rm -rf "$VP_AVAHI_DIR"
    export VP_AVAHI_DIR=""
}
