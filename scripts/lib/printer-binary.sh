# shellcheck shell=bash
# The vprinter binary a script tests when it is given none.
#
#   source scripts/lib/printer-binary.sh
#   printer_default_binary   # prints the path of the built vprinter (debug unless VP_BUILD_CONFIG=release)

PRINTER_BINARY_REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Prints the path of the vprinter binary that `swift build` wrote for VP_BUILD_CONFIG (debug by default), in
# VP_SCRATCH_PATH if that is set.
printer_default_binary() {
    local -a args=(-c "${VP_BUILD_CONFIG:-debug}" --show-bin-path)
    [[ -n "${VP_SCRATCH_PATH:-}" ]] && args+=(--scratch-path "$VP_SCRATCH_PATH")
    printf '%s/vprinter\n' "$(cd "$PRINTER_BINARY_REPO_DIR" && swift build "${args[@]}")"
}
