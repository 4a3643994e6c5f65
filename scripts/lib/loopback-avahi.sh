# shellcheck shell=bash
# An Avahi daemon for tests that sees the loopback interface only, on a private D-Bus system bus. Sourced by
# scripts/lib/services.sh; not meant to be sourced alone.
#
# If an Avahi daemon already answers on the bus that DBUS_SYSTEM_BUS_ADDRESS (or the machine's default system
# bus) names, it is reused and left running. Otherwise a private bus and a daemon are started, and
# DBUS_SYSTEM_BUS_ADDRESS is exported so that avahi-browse, ippfind and vprinter find them.

# True when an Avahi daemon owns its name on the current system bus.
services_avahi_answers() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Avahi 2>/dev/null | grep -q 'boolean true'
}

# Writes the private bus's configuration: a system-type bus on a socket in our folder where anyone on the
# machine may own and call any name (it exists only for the tests' processes).
services_write_dbus_conf() {
    local dir="$1"
    cat >"$dir/system-bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
}

# Writes avahi-daemon.conf: loopback only, no wide-area, nothing published about this machine.
services_write_avahi_conf() {
    local dir="$1"
    cat >"$dir/avahi-daemon.conf" <<EOF
[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=lo
ratelimit-interval-usec=1000000
ratelimit-burst=1000

[wide-area]
enable-wide-area=no

[publish]
disable-publishing=no
publish-addresses=yes
publish-hinfo=no
publish-workstation=no
publish-domain=no
publish-aaaa-on-ipv4=no
publish-a-on-ipv6=no

[reflector]
enable-reflector=no

[rlimits]
EOF
}

# Starts (or reuses) an Avahi daemon restricted to loopback, on a private system bus if it starts one.
services_start_avahi() {
    if services_avahi_answers; then
        services_log "reusing the Avahi daemon on the current system bus"
        return 0
    fi
    services_init_dir
    local dir="$VP_SERVICES_DIR/avahi"
    rm -rf "$dir"
    mkdir -p "$dir"
    services_write_dbus_conf "$dir"
    services_write_avahi_conf "$dir"

    dbus-daemon --nofork --config-file="$dir/system-bus.conf" >"$dir/dbus.log" 2>&1 &
    VP_DBUS_PID=$!
    export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/system_bus_socket"
    if ! services_wait_for test -S "$dir/system_bus_socket"; then
        services_log "the private D-Bus system bus did not start; its log follows"
        cat "$dir/dbus.log" >&2
        services_stop_avahi
        return 1
    fi

    # The daemon keeps its pid file and socket in /run/avahi-daemon whatever its configuration says, so a
    # daemon already running on another bus would stop ours: then ours gets a private /run/avahi-daemon in its
    # own mount namespace.
    mkdir -p /run/avahi-daemon
    local -a daemon=(avahi-daemon --file="$dir/avahi-daemon.conf" --no-drop-root --no-chroot --no-rlimits
        --no-proc-title)
    if avahi-daemon --check 2>/dev/null; then
        services_log "another avahi-daemon is running; starting ours in a private mount namespace"
        # shellcheck disable=SC2016 # $0 and $@ belong to the inner shell.
        daemon=(unshare --mount --propagation private sh -c
            'mount -t tmpfs -o mode=0755 tmpfs /run/avahi-daemon && exec "$0" "$@"' "${daemon[@]}")
    fi
    "${daemon[@]}" >"$dir/avahi.log" 2>&1 &
    VP_AVAHI_PID=$!
    VP_AVAHI_OURS=1
    if ! services_wait_for services_avahi_answers; then
        services_log "avahi-daemon did not come up on the private bus; its log follows"
        cat "$dir/avahi.log" >&2
        services_stop_avahi
        return 1
    fi
    services_log "avahi-daemon on loopback (pid $VP_AVAHI_PID), private bus $DBUS_SYSTEM_BUS_ADDRESS"
}

# Stops the Avahi daemon and the private bus if we started them, keeping their logs in VP_ARTIFACTS.
services_stop_avahi() {
    if [[ -n "$VP_AVAHI_OURS" ]]; then
        services_kill "$VP_AVAHI_PID"
        wait "$VP_AVAHI_PID" 2>/dev/null || true
        VP_AVAHI_PID=""
        VP_AVAHI_OURS=""
    fi
    if [[ -n "$VP_DBUS_PID" ]]; then
        services_kill "$VP_DBUS_PID"
        wait "$VP_DBUS_PID" 2>/dev/null || true
        VP_DBUS_PID=""
        services_keep_logs "$VP_SERVICES_DIR/avahi"
        unset DBUS_SYSTEM_BUS_ADDRESS
    fi
}
