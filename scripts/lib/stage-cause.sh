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

# pytest: the first failed test with its message, and pytest's short summary line.
_cause_api_test() {
    local log="$1" failed summary
    failed="$(_cause_first "$log" '^(FAILED|ERROR) |^E   ')"
    summary="$(grep -E '^(=+ )?[0-9]+ (failed|passed|error|errors)' "$log" | tail -n1 | sed -E 's/^=+ | =+$//g')"
    if [[ -z "$failed$summary" ]]; then
        _cause_first "$log" 'ci-job.sh: FAIL|Error|error' || true
        return
    fi
    printf '%s%s' "$failed" "${summary:+ (pytest: $summary)}"
    grep -q 'ci-job.sh: FAIL' "$log" && printf '; ci-job.sh: FAIL'
    return 0
}

# A stage that runs pytest among other checks (client-test, security-test): its own last line (which part failed),
# then pytest's first failed test with its message, if pytest failed.
_cause_pytest_stage() {
    local log="$1" failed
    failed="$(_cause_first "$log" '^(FAILED|ERROR) ')"
    printf '%s%s' "$(_cause_last "$log")" "${failed:+; $failed}"
}

# Prints the cause of STAGE's failure, one line.
stage_cause() {
    local stage="$1" log="$2" status="$3" limit="${4:-}" cause=""
    case "$stage" in
    setup) cause="$(_cause_first "$log" '^setup: FAIL')" ;;
    build) cause="$(_cause_first "$log" 'error:')" ;;
    swift-test) cause="$(_cause_swift_test "$log")" ;;
    api-test) cause="$(_cause_api_test "$log")" ;;
    conformance) cause="$(_cause_first "$log" '^ *FAIL |[[:space:]]FAIL[[:space:]]|FAIL$')" ;;
    cups-client-test) cause="$(_cause_first "$log" '^FAIL cups-client-test')" ;;
    client-test | security-test) cause="$(_cause_pytest_stage "$log")" ;;
    dnssd-test) cause="$(_cause_first "$log" '^dnssd-test: FAIL: ' | sed 's/^dnssd-test: FAIL: //')" ;;
    scenario-test) cause="$(_cause_first "$log" '[[:space:]]FAIL([[:space:]]|$)')" ;;
    web-test) cause="$(_cause_first "$log" '^web-test: FAIL: ' | sed 's/^web-test: FAIL: //')" ;;
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
