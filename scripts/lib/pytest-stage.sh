# The shared runner of the pytest stages: parses a stage's arguments, runs pytest with the test harness
# (scripts/harness/vptest, loaded as the plugin vptest.plugin, beside the project's package python/src), and
# reports PASS, or FAIL with the first failing test's cause. A stage script:
#
#   source "$REPO_DIR/scripts/lib/pytest-stage.sh"
#   stage_begin api-test api "$@"          # the stage's name, its artifacts folder, its arguments
#   stage_pytest "$REPO_DIR/scripts/api" || stage_failed "pytest scripts/api"
#   stage_end                              # exits 0 (PASS) or 1 (FAIL)
#
# A stage takes --binary PATH (the vprinter to test) and, after --, arguments for pytest (-k NAME, a test file).
# It exports VPRINTER (the binary), VP_ARTIFACTS (default artifacts/ in the checkout) and VP_SUITE (the artifacts
# folder's name), and runs in the checkout (vprinter finds ./profiles there). stage_require_commands and
# stage_require_modules fail it early when a tool or Python module of its tests is missing; stage_avahi gives its
# tests the loopback Avahi daemon.
# shellcheck shell=bash

STAGE_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STAGE_NAME=""
STAGE_PYTEST_ARGUMENTS=()
STAGE_FAILURES=()

# stage_begin NAME ARTIFACTS-FOLDER ARGUMENTS...: parses --binary PATH and -- PYTEST-ARGUMENTS; exits 2 on a usage
# error. Then stage_prepare.
stage_begin() {
    STAGE_NAME="$1"
    local folder="$2"
    shift 2
    local binary=""
    while (($# > 0)); do
        case "$1" in
        --binary) binary="${2:?--binary needs a value}"; shift 2 ;;
        --) shift; STAGE_PYTEST_ARGUMENTS=("$@"); break ;;
        *) echo "$STAGE_NAME: unknown argument: $1 (usage: $STAGE_NAME --binary PATH [-- PYTEST-ARGUMENTS])" >&2
           exit 2 ;;
        esac
    done
    [[ -x "$binary" ]] || { echo "$STAGE_NAME: FAIL: no vprinter binary at '$binary'" >&2; exit 2; }
    VPRINTER="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
    export VPRINTER
    stage_prepare "$STAGE_NAME" "$folder"
}

# stage_prepare NAME ARTIFACTS-FOLDER: what stage_begin does once it has the binary, for a stage that tests no binary
# of this machine (the container image) and parses its own arguments: exports VP_SUITE and VP_ARTIFACTS, clears the
# folder's failures.txt, figures.jsonl and verdicts.jsonl of an earlier run, finds the Python (VP_PYTHON) and goes
# to the checkout.
stage_prepare() {
    STAGE_NAME="$1"
    export VP_SUITE="$2"
    export VP_ARTIFACTS="${VP_ARTIFACTS:-$STAGE_REPO/artifacts}"
    mkdir -p "$VP_ARTIFACTS/$VP_SUITE"
    rm -f "$VP_ARTIFACTS/$VP_SUITE/"{failures.txt,figures.jsonl,verdicts.jsonl}
    # shellcheck source=scripts/lib/python.sh
    source "$STAGE_REPO/scripts/lib/python.sh" || exit 1
    cd "$STAGE_REPO"
}

# stage_arguments OPTIONS ARGUMENTS...: parses the arguments of a stage script whose own options are options of its
# pytest suite (its conftest.py defines them). OPTIONS names them, space-separated, with a trailing = on those that
# take a value ("--scenarios= --no-cups"). Takes --binary PATH (default: the debug build, scripts/lib/printer-binary.sh)
# and --artifacts DIR (exported as VP_ARTIFACTS); prints the script's usage comment on -h or --help and exits 2 on
# an unknown argument. Sets STAGE_ARGUMENTS to stage_begin's arguments: --binary PATH -- the options given, then
# what came after --.
#
#   stage_arguments "--profile= --reference" "$@"
#   stage_begin cups-client-test cups-client-test "${STAGE_ARGUMENTS[@]}"
stage_arguments() {
    local options=" $1 " binary="" script
    script="$(basename "$0")"
    shift
    local -a passed=()
    while (($# > 0)); do
        case "$1" in
        --binary) binary="${2:?--binary needs a value}"; shift 2 ;;
        --artifacts) export VP_ARTIFACTS="${2:?--artifacts needs a value}"; shift 2 ;;
        --) shift; passed+=("$@"); break ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
        *)
            if [[ "$options" == *" $1= "* ]]; then
                passed+=("$1" "${2:?$1 needs a value}")
                shift 2
            elif [[ "$options" == *" $1 "* ]]; then
                passed+=("$1")
                shift
            else
                echo "$script: unknown argument: $1 (see $script --help)" >&2
                exit 2
            fi ;;
        esac
    done
    if [[ -z "$binary" ]]; then
        # shellcheck source=scripts/lib/printer-binary.sh
        declare -F printer_default_binary >/dev/null || source "$STAGE_REPO/scripts/lib/printer-binary.sh"
        binary="$(printer_default_binary)"
    fi
    STAGE_ARGUMENTS=(--binary "$binary" -- "${passed[@]}")
}

# stage_require_commands COMMAND...: ends the stage with FAIL when a command the tests run is not on PATH.
stage_require_commands() {
    local command
    for command in "$@"; do
        command -v "$command" >/dev/null ||
            { echo "$STAGE_NAME: FAIL: $command is missing (scripts/setup installs it)"; exit 1; }
    done
}

# stage_require_modules MODULE...: ends the stage with FAIL when a Python module the tests import is missing from
# VP_PYTHON's environment (scripts/setup installs Debian's python3-MODULE).
stage_require_modules() {
    local module
    for module in "$@"; do
        "$VP_PYTHON" -c "import $module" 2>/dev/null ||
            { echo "$STAGE_NAME: FAIL: Python's $module is missing (scripts/setup installs it)"; exit 1; }
    done
}

# stage_avahi: makes the loopback-only Avahi daemon of scripts/lib/services.sh reachable for the tests (reusing one
# that answers, as under scripts/test, else starting one that the stage stops when it exits); FAIL when none starts.
stage_avahi() {
    # shellcheck source=scripts/lib/services.sh
    source "$STAGE_REPO/scripts/lib/services.sh"
    trap services_stop_all EXIT
    services_start_avahi || { echo "$STAGE_NAME: FAIL: no Avahi daemon could be started"; exit 1; }
}

# stage_pytest PATH...: runs pytest on the paths (and the stage's pytest arguments) with the harness; returns
# pytest's exit status.
stage_pytest() {
    PYTHONPATH="$STAGE_REPO/scripts/harness:$STAGE_REPO/python/src${PYTHONPATH:+:$PYTHONPATH}" \
        "$VP_PYTHON" -m pytest -q -rfE --durations=8 -p no:cacheprovider -p no:vprinter -p vptest.plugin "$@" \
        "${STAGE_PYTEST_ARGUMENTS[@]}"
}

# stage_failed WHAT: notes a failed part of the stage for stage_end.
stage_failed() {
    STAGE_FAILURES+=("$1")
}

# stage_end: prints the measured figures, then "NAME: PASS", or "NAME: FAIL: ..." with the failed parts and the
# first failing test's cause; exits 0 or 1.
stage_end() {
    local folder="$VP_ARTIFACTS/$VP_SUITE"
    if [[ -s "$folder/figures.jsonl" ]]; then
        echo "=== measured figures"
        cat "$folder/figures.jsonl"
    fi
    if ((${#STAGE_FAILURES[@]} == 0)); then
        echo "$STAGE_NAME: PASS"
        exit 0
    fi
    local cause=""
    if [[ -s "$folder/failures.txt" ]]; then
        cause="; $(wc -l <"$folder/failures.txt") failing test(s), first: $(head -n 1 "$folder/failures.txt")"
    fi
    echo "$STAGE_NAME: FAIL: ${STAGE_FAILURES[*]}$cause"
    exit 1
}
