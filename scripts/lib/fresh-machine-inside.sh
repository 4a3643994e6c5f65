#!/usr/bin/env bash
# The part of scripts/fresh-machine-test that runs inside the fresh root (copied there; not meant to be run on
# a development machine). Runs the README's two commands in the checkout, as a new user would:
#   readme-run   `scripts/run --profile duplex-laser`: waits for its URI line, finds the printer with
#                `avahi-browse -rt _ipp._tcp` (scripts/run started Avahi, on lo only), asks Get-Printer-Attributes and
#                prints one PDF with ipptool, waits for the job to end with its pages rendered, stops it (SIGINT,
#                exit status 0)
#   test         `scripts/test [--only STAGES]`
#   beside-daemon after the README run, whose system bus and avahi-daemon keep running as on a desktop: the test
#                command left that daemon alone (same pid) and nothing of the tests' is listed through it
#   swift-test   with --swift-test-runs N: the swift-test stage N times in a row (with the test services), each
#                timed
# and prints what each gave, the test command's summary last.
#
# Usage: inside.sh --checkout DIR --out DIR [--only STAGES] [--swift-test-runs N] [--no-run]
# Exit status: that of scripts/test; 1 also when the README run or a swift test run failed.
set -uo pipefail

# Seconds scripts/run may take to print its URI: it installs every package (about 200) and makes a cold release
# build first.
readonly README_URI_LIMIT=2400
# Seconds the printed job may take to end.
readonly README_JOB_LIMIT=120
# Seconds the printer may take to exit after SIGINT.
readonly README_STOP_LIMIT=30
# The service published through the system's avahi-daemon while the test command runs beside it (check_beside_daemon).
readonly DESKTOP_MARKER="fresh-machine-desktop-service"
# Times avahi-browse is asked (a second apart) before the printer counts as not advertised.
readonly README_BROWSE_TRIES=20

checkout=""
out=""
only=""
runs=0
no_run=""
results=()
failed=0

# Records one step's result: name, PASS or FAIL, detail (the cause when it failed).
result() {
    results+=("$(printf '%-18s %-4s  %s' "$1" "$2" "$3")")
    echo "fresh-machine: $1 $2 $3"
    [[ "$2" == PASS ]] || failed=1
}

# The README's first command, briefly.
readme_run() {
    local dir="$out/readme-run" start=$SECONDS pid uri="" extra=()
    mkdir -p "$dir"
    # The README's port, unless another printer on this machine (the root shares its network) holds it.
    if ! python3 -c 'import socket; s = socket.socket(); s.bind(("", 8631))' 2>/dev/null; then
        extra=(--port 0)
        echo "fresh-machine: port 8631 is in use on this machine: running scripts/run with --port 0"
    fi
    echo "=== readme-run: scripts/run --profile duplex-laser ${extra[*]}"
    # No init system runs here, so no Avahi daemon either: scripts/run starts one, kept to loopback as every test
    # keeps Avahi (the root shares this machine's network).
    VP_AVAHI_ALLOW_INTERFACES=lo setsid scripts/run --profile duplex-laser "${extra[@]}" >"$dir/stdout" \
        2> >(tee "$dir/stderr" >&2) &
    pid=$!
    local deadline=$((SECONDS + README_URI_LIMIT))
    until uri="$(head -n1 "$dir/stdout" 2>/dev/null)" && [[ -n "$uri" ]]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid"
            result readme-run FAIL "scripts/run exited ($?) before printing a URI: $(tail -n1 "$dir/stderr")"
            return
        fi
        if ((SECONDS >= deadline)); then
            kill -KILL -- "-$pid" 2>/dev/null
            result readme-run FAIL "no URI line after $README_URI_LIMIT s: $(tail -n1 "$dir/stderr")"
            return
        fi
        sleep 1
    done
    echo "fresh-machine: printer URI after $((SECONDS - start)) s: $uri"
    local cause=""
    gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$dir/hello.pdf" \
        -c "/Helvetica findfont 36 scalefont setfont 72 600 moveto (hello from a fresh machine) show showpage" ||
        cause="gs could not make the PDF to print"
    if [[ -z "$cause" ]] && ! ipptool -tv "$uri" get-printer-attributes.test >"$dir/get-printer-attributes.log" 2>&1
    then
        cause="Get-Printer-Attributes failed: $(grep -m1 -E 'FAIL|Unable' "$dir/get-printer-attributes.log")"
    fi
    if [[ -z "$cause" ]] && ! ipptool -tv -f "$dir/hello.pdf" "$uri" print-job.test >"$dir/print-job.log" 2>&1; then
        cause="Print-Job failed: $(grep -m1 -E 'FAIL|Unable' "$dir/print-job.log")"
    fi
    # The printer is found as a phone or CUPS finds it: browsed over DNS-SD.
    if [[ -z "$cause" ]]; then
        local tries=0
        until timeout 10 avahi-browse -rt _ipp._tcp >"$dir/avahi-browse.txt" 2>&1 &&
            grep -q '^=.* vprinter duplex-laser ' "$dir/avahi-browse.txt"; do
            tries=$((tries + 1))
            if ((tries >= README_BROWSE_TRIES)); then
                cause="avahi-browse -rt _ipp._tcp did not find 'vprinter duplex-laser' ($dir/avahi-browse.txt)"
                break
            fi
            sleep 1
        done
    fi
    local bin
    bin="$(swift build -c release --static-swift-stdlib --show-bin-path 2>/dev/null)"
    if [[ -z "$cause" ]] && ! "$bin/vprinter" wait --url "$uri" --jobs 1 --timeout "$README_JOB_LIMIT" \
        >"$dir/jobs.json" 2>"$dir/wait.err"; then
        cause="the job did not end: $(tail -n1 "$dir/wait.err")"
    fi
    if [[ -z "$cause" ]]; then
        local state pages
        state="$(jq -r '.. | objects | select(has("job-state")) | .["job-state"]' "$dir/jobs.json" 2>/dev/null |
            head -n1)"
        pages="$(find vprinter-output/jobs -name 'page-*.png' 2>/dev/null | wc -l)"
        if [[ "$state" != completed ]] || ((pages == 0)); then
            cause="the job ended $state with $pages page images (record in $dir/jobs.json)"
        fi
    fi
    kill -INT "$pid" 2>/dev/null
    local waited=0 rc
    while kill -0 "$pid" 2>/dev/null && ((waited < README_STOP_LIMIT * 10)); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL -- "-$pid" 2>/dev/null
        [[ -n "$cause" ]] || cause="vprinter did not exit within $README_STOP_LIMIT s of SIGINT"
    fi
    wait "$pid"
    rc=$?
    [[ -n "$cause" || "$rc" == 0 ]] || cause="vprinter exited $rc after SIGINT"
    # What scripts/run started keeps running, as the README says: the test command then runs beside a system bus
    # and avahi-daemon, as on a desktop, and must leave them alone (test_command checks).
    if ! grep -q 'scripts/run: no Avahi daemon answered.*started' "$dir/stderr"; then
        [[ -n "$cause" ]] || cause="scripts/run did not start an Avahi daemon where none ran: $(tail -n1 "$dir/stderr")"
    fi
    if [[ -n "$cause" ]]; then
        result readme-run FAIL "$cause"
    else
        result readme-run PASS "URI, browsed with avahi-browse, Get-Printer-Attributes, one job ($pages pages), exit 0; $((
            SECONDS - start)) s"
    fi
}

# The pid of the avahi-daemon that answers on the system bus (the default one), or nothing. Asked as the tests'
# harness asks (vptest.services reachable), with no bus of the tests' in the environment.
system_avahi_pid() {
    env -u DBUS_SYSTEM_BUS_ADDRESS PYTHONPATH=scripts/harness python3 -m vptest.services reachable || return 0
    cat /run/avahi-daemon/pid 2>/dev/null
}

# After the test command, beside the system's avahi-daemon that answered before it (pid BEFORE): it still runs with
# that pid (no test restarted or stopped it), and browsing every service through it (avahi-browse on the system
# bus) finds no printer of the tests' (they advertise through daemons of their own, in namespaces of their own).
check_beside_daemon() {
    local before="$1" after browsed="$out/system-avahi-browse.txt"
    after="$(system_avahi_pid)"
    if [[ "$after" != "$before" ]]; then
        result beside-daemon FAIL "the system's avahi-daemon was pid $before before the test command, ${after:-gone} after"
        return
    fi
    env -u DBUS_SYSTEM_BUS_ADDRESS timeout 20 avahi-browse -atpr --no-db-lookup >"$browsed" 2>&1
    [[ -z "$marker_pid" ]] || kill "$marker_pid" 2>/dev/null
    if ! grep -q "$DESKTOP_MARKER" "$browsed"; then
        result beside-daemon FAIL "avahi-browse -at through the system's daemon did not list its own '$DESKTOP_MARKER' ($browsed)"
    elif grep -qi 'vprinter\|_ipp\._tcp\|_ipps\._tcp\|_uscan' "$browsed"; then
        result beside-daemon FAIL "avahi-browse -at through the system's daemon lists test services ($browsed)"
    else
        result beside-daemon PASS "the system's avahi-daemon kept pid $before and lists no test printer ($(wc -l <"$browsed") lines browsed)"
    fi
}

# The README's second command.
test_command() {
    local start=$SECONDS rc before
    before="$(system_avahi_pid)"
    marker_pid=""
    if [[ -n "$before" ]]; then
        echo "fresh-machine: the test command runs beside the system's avahi-daemon (pid $before)"
        # A service of the desktop's own, so that the browse afterwards shows it sees what is published through it.
        env -u DBUS_SYSTEM_BUS_ADDRESS avahi-publish -s "$DESKTOP_MARKER" _http._tcp 9 >/dev/null 2>&1 &
        marker_pid=$!
    fi
    echo "=== test: scripts/test ${only:+--only $only}"
    scripts/test ${only:+--only "$only"} 2>&1 | tee "$out/test.log"
    rc=${PIPESTATUS[0]}
    [[ -z "$before" ]] || check_beside_daemon "$before"
    test_rc=$rc
    sed -n '/^=== summary/,$p' "$out/test.log" >"$out/summary.txt"
    # The swift test runs after this one start their own artifacts/test.
    rm -rf "$out/test-logs"
    cp -r artifacts/test "$out/test-logs" 2>/dev/null
    local last
    last="$(tail -n1 "$out/test.log")"
    if ((rc == 0)); then
        result test PASS "$last; $((SECONDS - start)) s"
    else
        result test FAIL "exit $rc: $last; $((SECONDS - start)) s"
    fi
}

# The font corpus (scripts/harness/vptest/font_corpus.py) printed with the root's own build into fonts/root, for
# scripts/fresh-machine-test to compare with its own machine's printing of the same files (docs/snapshots.md): the
# root has other fonts installed on purpose.
font_corpus() {
    local binary log="$out/fonts.log"
    local -a corpus=(env PYTHONPATH=scripts/harness:python/src python3 -m vptest.font_corpus)
    binary="$(swift build --show-bin-path 2>/dev/null)/vprinter"
    if "${corpus[@]}" write "$out/fonts/corpus" >"$log" 2>&1 &&
        "${corpus[@]}" render "$binary" "$out/fonts/corpus" "$out/fonts/root" >>"$log" 2>&1; then
        result font-corpus PASS "$(find "$out/fonts/corpus" -type f | wc -l) documents printed in the root"
    else
        result font-corpus FAIL "$(tail -n1 "$log")"
    fi
}

# The swift-test stage RUNS times in a row, exactly as the test command runs it (`scripts/test --only
# services,swift-test`: the test services, then `swift test` with the stage's settings and time limit), each
# timed; the logs are kept as swift-test-N.log.
swift_test_runs() {
    local i start rc seconds line times=() bad=0
    for ((i = 1; i <= runs; i++)); do
        echo "=== swift test run $i of $runs"
        start=$EPOCHREALTIME
        scripts/test --only services,swift-test >"$out/swift-test-run-$i.out" 2>&1
        rc=$?
        seconds="$(python3 -c 'import sys; print("%.1f" % (float(sys.argv[2]) - float(sys.argv[1])))' \
            "$start" "$EPOCHREALTIME")"
        times+=("$seconds")
        cp artifacts/test/swift-test.log "$out/swift-test-$i.log" 2>/dev/null
        line="$(grep -E '^(✔|✘) Test run with' "$out/swift-test-$i.log" 2>/dev/null | tail -n1)"
        if ((rc == 0)); then
            echo "swift test run $i: PASS ${seconds} s  $line"
        else
            bad=$((bad + 1))
            echo "swift test run $i: FAIL ${seconds} s  $(grep -E '^swift-test +FAIL' "$out/swift-test-run-$i.out")"
        fi
    done
    local slowest
    slowest="$(printf '%s\n' "${times[@]}" | sort -n | tail -n1)"
    if ((bad == 0)); then
        result swift-test-runs PASS "$runs of $runs passed; times ${times[*]} s; slowest $slowest s"
    else
        result swift-test-runs FAIL "$bad of $runs failed; times ${times[*]} s; logs swift-test-N.log"
    fi
}

main() {
    while (($# > 0)); do
        case "$1" in
        --checkout) checkout="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        --swift-test-runs) runs="$2"; shift 2 ;;
        --no-run) no_run=1; shift ;;
        *) echo "inside.sh: unknown argument: $1" >&2; exit 2 ;;
        esac
    done
    cd "$checkout" || exit 1
    local start=$SECONDS
    test_rc=0
    [[ -n "$no_run" ]] || readme_run
    test_command
    font_corpus
    ((runs == 0)) || swift_test_runs
    echo "=== fresh machine: $(. /etc/os-release && echo "$PRETTY_NAME"), $((SECONDS - start)) s"
    printf '%s\n' "${results[@]}"
    echo "--- scripts/test in the root:"
    cat "$out/summary.txt"
    if ((test_rc != 0)); then
        exit "$test_rc"
    fi
    ((failed == 0))
}

main "$@"
