# shellcheck shell=bash
# Starting and stopping printers for tests and benchmarks: vprinter through its command-line contract
# (DESIGN.md, "Command line"), and CUPS's ippeveprinter as a reference.
#
# Usage (from another bash script):
#   source scripts/lib/printer.sh
#   printer_default_binary                        # the built vprinter (scripts/lib/printer-binary.sh)
#   printer_start_vprinter BIN PROFILE OUTDIR LOGDIR [OPTION...]   # sets PRINTER_URI and PRINTER_PID
#   printer_start_ippeveprinter SPOOLDIR LOGDIR        # sets PRINTER_URI and PRINTER_PID
#   printer_stop                                   # stops the printer started last

# Seconds a printer gets to print its URI (vprinter) or accept a connection (ippeveprinter).
readonly PRINTER_START_TIMEOUT=30

# The document formats the reference printer accepts, like the shipped profiles.
readonly PRINTER_REFERENCE_FORMATS="application/pdf,image/jpeg,image/pwg-raster,image/urf"

PRINTER_URI=""
PRINTER_PID=""

PRINTER_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/net.sh
source "$PRINTER_LIB_DIR/net.sh"
# shellcheck source=scripts/lib/printer-binary.sh
source "$PRINTER_LIB_DIR/printer-binary.sh"
PRINTER_REPO_DIR="$(cd "$PRINTER_LIB_DIR/../.." && pwd)"

# Prints the shipped profile names: from `vprinter profiles` when the binary answers, else from profiles/*.json.
printer_profiles() {
    local bin="${1:-}"
    if [[ -n "$bin" && -x "$bin" ]] && "$bin" profiles >/dev/null 2>&1; then
        "$bin" profiles | awk 'NF { print $1 }'
        return 0
    fi
    local file
    for file in "$PRINTER_REPO_DIR"/profiles/*.json; do
        [[ -e "$file" ]] || continue
        basename "$file" .json
    done
}

# Starts vprinter with PROFILE on a free port without DNS-SD, recording jobs in OUTDIR and logging into
# LOGDIR/vprinter-PROFILE.{out,err}. Waits for the URI line; sets PRINTER_URI and PRINTER_PID. The words of
# VP_PRINTER_ARGS (for example "--tls") are added to its arguments, then any OPTION given after LOGDIR.
printer_start_vprinter() {
    local bin="$1" profile="$2" outdir="$3" logdir="$4"
    shift 4
    local name
    name="$(basename "$profile" .json)"
    mkdir -p "$outdir" "$logdir"
    local out="$logdir/vprinter-$name.out" err="$logdir/vprinter-$name.err" ready="$logdir/vprinter-$name.ready"
    # Emptied here, not by the redirection below: that one happens in the child, maybe after the first look.
    rm -f "$ready"
    : >"$out"
    local -a extra=()
    read -r -a extra <<<"${VP_PRINTER_ARGS:-}"
    "$bin" --profile "$profile" --port 0 --no-dnssd --output-dir "$outdir" --ready-file "$ready" "${extra[@]}" "$@" \
        >"$out" 2>"$err" &
    PRINTER_PID=$!
    PRINTER_URI=""
    local deadline=$((SECONDS + PRINTER_START_TIMEOUT))
    while [[ -z "$PRINTER_URI" ]]; do
        PRINTER_URI="$(grep -m1 -E '^ipps?://' "$out" 2>/dev/null || true)"
        if [[ -z "$PRINTER_URI" ]] && ! kill -0 "$PRINTER_PID" 2>/dev/null; then
            echo "vprinter ($name) exited before printing its URI:" >&2
            tail -n 20 "$err" >&2
            PRINTER_PID=""
            return 1
        fi
        if [[ -z "$PRINTER_URI" ]] && ((SECONDS >= deadline)); then
            echo "vprinter ($name) printed no URI within ${PRINTER_START_TIMEOUT}s" >&2
            printer_stop
            return 1
        fi
        [[ -n "$PRINTER_URI" ]] || sleep 0.1
    done
}

# Starts CUPS's ippeveprinter on a free port without DNS-SD, spooling into SPOOLDIR and logging into LOGDIR.
# Waits until it accepts a connection; sets PRINTER_URI and PRINTER_PID.
printer_start_ippeveprinter() {
    local spooldir="$1" logdir="$2" port
    mkdir -p "$spooldir" "$logdir"
    port="$(free_loopback_port)"
    ippeveprinter -p "$port" -n localhost -r off -2 -k -d "$spooldir" -f "$PRINTER_REFERENCE_FORMATS" \
        "ippeveprinter-reference" >"$logdir/ippeveprinter.log" 2>&1 &
    PRINTER_PID=$!
    PRINTER_URI="ipp://localhost:$port/ipp/print"
    local deadline=$((SECONDS + PRINTER_START_TIMEOUT))
    until (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        if ! kill -0 "$PRINTER_PID" 2>/dev/null || ((SECONDS >= deadline)); then
            echo "ippeveprinter did not start:" >&2
            tail -n 20 "$logdir/ippeveprinter.log" >&2
            printer_stop
            return 1
        fi
        sleep 0.1
    done
}

# Stops the printer started last (SIGTERM, then SIGKILL after 10 seconds). Safe to call more than once.
printer_stop() {
    local pid="$PRINTER_PID"
    PRINTER_PID=""
    [[ -n "$pid" ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    local _
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
