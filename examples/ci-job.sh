#!/usr/bin/env bash
# Example CI job: start vprinter on a free port without DNS-SD, print a PDF with CUPS's ipptool, wait for the job
# with `vprinter wait`, assert on its record with jq, stop the printer.
#
# Usage: examples/ci-job.sh [VPRINTER]     (default: vprinter on PATH)
set -euo pipefail

vprinter="${1:-vprinter}"
work="$(mktemp -d)"
printer_pid=""
cleanup() {
    if [[ -n "$printer_pid" ]]; then kill "$printer_pid" 2>/dev/null || true; wait "$printer_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# A one-page PDF to print.
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$work/hello.pdf" \
    -c "/Helvetica findfont 36 scalefont setfont 72 600 moveto (hello from CI) show showpage"

# 1. Start the printer; its first stdout line is the printer URI.
mkfifo "$work/uri"
"$vprinter" --port 0 --no-dnssd --output-dir "$work/output" >"$work/uri" 2>"$work/vprinter.log" &
printer_pid=$!
read -r -t 30 uri <"$work/uri"
echo "printer: $uri"

# 2. Print with ipptool (Print-Job, two copies).
cat >"$work/print.test" <<'TEST'
{
    NAME "Print-Job from CI"
    OPERATION Print-Job
    GROUP operation-attributes-tag
    ATTR charset attributes-charset utf-8
    ATTR naturalLanguage attributes-natural-language en
    ATTR uri printer-uri $uri
    ATTR name requesting-user-name ci
    ATTR name job-name "ci example"
    ATTR mimeMediaType document-format application/pdf
    GROUP job-attributes-tag
    ATTR integer copies 2
    FILE $filename
    STATUS successful-ok
}
TEST
ipptool -tf "$work/hello.pdf" "$uri" "$work/print.test"

# 3. Wait until the job has ended; the records come back as JSON.
"$vprinter" wait --url "$uri" --jobs 1 --timeout 60 >"$work/jobs.json"

# 4. Assert on what was printed.
jq -e '.[0]["job-state"] == "completed"' "$work/jobs.json" >/dev/null
jq -e '.[0]["job-name"] == "ci example" and .[0].attributes.copies == 2' "$work/jobs.json" >/dev/null
jq -e '.[0].documents[0]["document-format-detected"] == "application/pdf"' "$work/jobs.json" >/dev/null
jq -e '(.[0].impressions | length) == 1 and .[0]["job-impressions"] == 2' "$work/jobs.json" >/dev/null
page="$(jq -r '.[0].impressions[0].file' "$work/jobs.json")"
test -s "$work/output/jobs/1/$page"
echo "ci-job: the job completed with 1 page printed twice ($page)"
