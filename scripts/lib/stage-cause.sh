# shellcheck shell=bash
# The cause of a failed stage of scripts/test in one line, read from the stage's log, so that a failure on a
# machine like CI's is read without digging: scripts/test prints it as the stage's last line and in the summary.
#
# Usage: stage_cause STAGE LOG STATUS [LIMIT]   (STATUS 124: the stage ran past its LIMIT seconds)

# Longest cause, in characters: the summary line stays one line.
readonly VP_CAUSE_WIDTH=220

# The first line of LOG matching the extended regular expression, without leading blanks; empty if none.
_cause_first() {
    grep -m1 -E -e "$2" "$1" 2>/dev/null | sed -E 's/^[[:space:]]+//'
}

# The last non-empty line of LOG.
_cause_last() {
    grep -v -E '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 | sed -E 's/^[[:space:]]+//'
}

# swift test (Swift Testing): the first issue and its place, how many issues in all; when the run never ended
# (a time limit, a crash), the tests that had started and not ended.
_cause_swift_test() {
    local log="$1" issue total unfinished
    issue="$(_cause_first "$log" '^✘ Test .* recorded an issue')"
    total="$(_cause_first "$log" '^✘ Test run with .* failed after')"
    if [[ -n "$issue" ]]; then
        # "✘ Test f() recorded an issue at File.swift:12:5: message" -> "f(): message (File.swift:12)"
        issue="$(sed -E 's/^✘ Test (.*) recorded an issue( with .*)? at ([^:]+:[0-9]+):[0-9]+: (.*)$/\1: \4 (\3)/' <<<"$issue")"
        printf '%s%s' "$issue" "${total:+; $(sed -E 's/.* with ([0-9]+ issues?)\.?$/\1 in all/' <<<"$total")}"
        return
    fi
    if ! grep -q -E '^(✔|✘) Test run with' "$log"; then
        unfinished="$(_swift_test_unfinished "$log")"
        local crash
        crash="$(_cause_first "$log" 'Exited with (unexpected )?signal|Fatal error|fatal error')"
        printf 'the test run did not end%s; still running: %s' "${crash:+ ($crash)}" "${unfinished:-nothing it named}"
        return
    fi
    _cause_last "$log"
}

# The tests a Swift Testing log shows as started and not ended, comma-separated.
_swift_test_unfinished() {
    awk '
        /^◇ Test [^ ]+ started\.$/ && $3 != "run" { name = $3; order[++n] = name }
        /^(✔|✘) Test [^ ]+ (passed|failed)/ { ended[$3] = 1 }
        END {
            for (i = 1; i <= n; i++) if (!ended[order[i]]) { printf "%s%s", sep, order[i]; sep = ", " }
        }' "$1"
}

# A stage that ends as scripts/lib/pytest-stage.sh ends it (api-test, conformance, web-test): its line
# "STAGE: FAIL: ...", which names the failed parts and the first failing test's cause.
_cause_runner() {
    _cause_first "$1" "^$2: FAIL: " | sed "s/^$2: FAIL: //"
}

# Prints the cause of STAGE's failure, one line.
stage_cause() {
    local stage="$1" log="$2" status="$3" limit="${4:-}" cause=""
    case "$stage" in
    setup) cause="$(_cause_first "$log" '^setup: FAIL')" ;;
    build) cause="$(_cause_first "$log" 'error:')" ;;
    swift-test) cause="$(_cause_swift_test "$log")" ;;
    # The stages on scripts/lib/pytest-stage.sh: their last line names the failed parts and the first failing test.
    api-test | web-test | cups-client-test | scenario-test | dnssd-test | client-test | security-test | fleet-test | \
        image-test | conformance)
        cause="$(_cause_runner "$log" "$stage")" ;;
    fuzz) cause="$(_cause_first "$log" '^==[0-9]+==ERROR|^SUMMARY:|deadly signal|^fuzz: |error:')" ;;
    esac
    [[ -n "$cause" ]] || cause="$(_cause_last "$log")"
    if [[ "$status" == 124 ]]; then
        cause="timed out after ${limit:-its limit} s; ${cause}"
    fi
    cause="${cause//$'\t'/ }"
    ((${#cause} <= VP_CAUSE_WIDTH)) || cause="${cause:0:$((VP_CAUSE_WIDTH - 3))}..."
    printf '%s\n' "${cause:-exit status $status}"
}
