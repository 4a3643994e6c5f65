# shellcheck shell=bash
# A private cupsd for tests, with its own configuration, spool, cache, state and logs in a temp folder, listening
# on a free 127.0.0.1 port only. Sourced by scripts/lib/services.sh; not meant to be sourced alone.
#
# After services_start_cupsd:
#   CUPS_SERVER    127.0.0.1:PORT, so lpadmin, lp, lpstat and cancel talk to this cupsd
#   CUPS_STATEDIR  its state folder, where the clients find the local root certificate
#   VP_CUPSD_DIR   the folder holding everything (logs in VP_CUPSD_DIR/log)
#
# services_cups_add_everywhere QUEUE URI ERRFILE adds a driverless queue (lpadmin -m everywhere) and returns once
# cupsd has loaded its PPD, so that a job sent right after it is not aborted (see CUPS_QUEUE_LOAD_LIMIT).

# Seconds to wait, after `lpadmin -m everywhere`, for cupsd to load the new queue's PPD. CUPS 2.4.2 loads it once
# more from its main loop shortly after the queue is added (it then writes CACHEDIR/QUEUE.data); a job created
# before that load is aborted with "Unable to convert file 0 to printable format", because the reload replaces
# the queue's MIME types under the job. Measured here: 4 jobs of 105 sent at once after lpadmin were aborted so,
# none of 60 sent after the cache file appeared (it appears within 50-100 ms).
readonly CUPS_QUEUE_LOAD_LIMIT=10

# Writes cupsd.conf: loopback only, no browsing or sharing, and no authentication for anything, since only
# processes on this machine can reach it and the tests run lpadmin without a password.
services_write_cupsd_conf() {
    local dir="$1" port="$2"
    cat >"$dir/etc/cupsd.conf" <<EOF
LogLevel debug
MaxLogSize 0
ErrorPolicy abort-job
Listen 127.0.0.1:$port
Listen $dir/run/cups.sock
Browsing No
BrowseLocalProtocols none
DefaultShared No
DefaultAuthType None
WebInterface No
JobRetryInterval 1
PreserveJobHistory Yes
<Location />
  Order allow,deny
  Allow from 127.0.0.1
  Allow from @LOCAL
</Location>
<Policy default>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
EOF
}

# Writes cups-files.conf: every folder cupsd writes to lives under the temp folder; filters and the
# driverless tools come from the installed CUPS.
services_write_cups_files_conf() {
    local dir="$1"
    cat >"$dir/etc/cups-files.conf" <<EOF
ServerRoot $dir/etc
RequestRoot $dir/spool
CacheDir $dir/cache
StateDir $dir/run
TempDir $dir/spool/tmp
AccessLog $dir/log/access_log
ErrorLog $dir/log/error_log
PageLog $dir/log/page_log
FileDevice Yes
Sandboxing Relaxed
# Backends (user lp) resolve DNS-SD URIs through Avahi on the test's private D-Bus system bus, whose folder
# scripts/lib/avahi.sh opens to lp. CUPS 2.4 wants PassEnv here rather than in cupsd.conf.
PassEnv DBUS_SYSTEM_BUS_ADDRESS
EOF
}

# True when the cupsd of CUPS_SERVER answers. `lpstat -r` exits 0 whether or not it does ("scheduler is not
# running"), so its words are read.
services_cupsd_answers() {
    [[ "$(LC_ALL=C lpstat -r 2>/dev/null)" == "scheduler is running" ]]
}

# Starts the private cupsd and waits until it answers. Exports CUPS_SERVER and CUPS_STATEDIR.
services_start_cupsd() {
    if [[ -n "$VP_CUPSD_PID" ]] && kill -0 "$VP_CUPSD_PID" 2>/dev/null; then
        return 0
    fi
    # A private cupsd that a parent script started (it exported these) is reused.
    if [[ -n "${CUPS_SERVER:-}" && -n "${VP_CUPSD_DIR:-}" ]] && services_cupsd_answers; then
        services_log "reusing the private cupsd on $CUPS_SERVER"
        return 0
    fi
    local port
    services_init_dir
    VP_CUPSD_DIR="$(mktemp -d "$VP_SERVICES_DIR/cupsd.XXXXXX")"
    export VP_CUPSD_DIR
    mkdir -p "$VP_CUPSD_DIR"/{etc/ppd,etc/ssl,spool/tmp,cache,run,log}
    # The spool is read by filters running as lp; CUPS wants its usual owners and modes.
    chgrp lp "$VP_CUPSD_DIR/spool" "$VP_CUPSD_DIR/spool/tmp" "$VP_CUPSD_DIR/cache" 2>/dev/null || true
    chmod 0710 "$VP_CUPSD_DIR/spool"
    chmod 1770 "$VP_CUPSD_DIR/spool/tmp"
    chmod 0770 "$VP_CUPSD_DIR/cache"
    chmod 0755 "$VP_CUPSD_DIR" "$VP_CUPSD_DIR/run" "$VP_CUPSD_DIR/etc"
    port="$(free_loopback_port)"
    services_write_cupsd_conf "$VP_CUPSD_DIR" "$port"
    services_write_cups_files_conf "$VP_CUPSD_DIR"

    cupsd -f -c "$VP_CUPSD_DIR/etc/cupsd.conf" -s "$VP_CUPSD_DIR/etc/cups-files.conf" \
        >"$VP_CUPSD_DIR/log/cupsd.out" 2>&1 &
    VP_CUPSD_PID=$!
    export CUPS_SERVER="127.0.0.1:$port"
    export CUPS_STATEDIR="$VP_CUPSD_DIR/run"
    if ! services_wait_for services_cupsd_answers; then
        services_log "cupsd did not start on $CUPS_SERVER; its log follows"
        cat "$VP_CUPSD_DIR/log/cupsd.out" "$VP_CUPSD_DIR/log/error_log" >&2 2>/dev/null || true
        services_stop_cupsd
        return 1
    fi
    services_log "cupsd running on $CUPS_SERVER (pid $VP_CUPSD_PID, files in $VP_CUPSD_DIR)"
}

# Stops the private cupsd if we started it, keeping its logs in VP_ARTIFACTS/services/cupsd-SCRIPT (each stage of
# the test command has its own cupsd).
services_stop_cupsd() {
    [[ -n "$VP_CUPSD_PID" ]] || return 0
    services_kill "$VP_CUPSD_PID"
    wait "$VP_CUPSD_PID" 2>/dev/null || true
    VP_CUPSD_PID=""
    services_keep_logs "$VP_CUPSD_DIR/log" "cupsd-${0##*/}"
    unset CUPS_SERVER CUPS_STATEDIR VP_CUPSD_DIR
}

# Adds QUEUE for URI with `lpadmin -m everywhere`, lpadmin's errors going to ERRFILE, and waits until cupsd has
# loaded the queue's PPD (its cache file in the private cupsd's CacheDir), at most CUPS_QUEUE_LOAD_LIMIT seconds.
# Returns lpadmin's status; a PPD still not loaded by then only gets a line on stderr (the job may still print).
services_cups_add_everywhere() {
    local queue="$1" uri="$2" errfile="$3"
    lpadmin -p "$queue" -E -v "$uri" -m everywhere 2>"$errfile" || return
    [[ -n "${VP_CUPSD_DIR:-}" ]] || return 0
    local deadline=$((SECONDS + CUPS_QUEUE_LOAD_LIMIT))
    until [[ -e "$VP_CUPSD_DIR/cache/$queue.data" ]]; do
        if ((SECONDS >= deadline)); then
            echo "cupsd: queue $queue: PPD not loaded within ${CUPS_QUEUE_LOAD_LIMIT}s of lpadmin" >&2
            return 0
        fi
        sleep 0.05
    done
}
