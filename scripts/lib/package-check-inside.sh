#!/bin/bash
# Runs inside a fresh Debian root for scripts/package-check: installs the package as a user would and prints a job
# with it. Arguments: the package's path in the root, and "1" to run lintian on it too.
set -euo pipefail
export LC_ALL=C.UTF-8
deb="$1"
run_lintian="${2:-}"
step() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }

# shellcheck source=/dev/null
. /etc/os-release
step "system: $PRETTY_NAME"
! command -v swift >/dev/null || fail "a Swift toolchain is installed here ($(command -v swift)): not the machine to check"

step "apt-get install $deb"
apt-get update -q
apt-get install -y -q "$deb"
# ipptool, the client of the checks: from the system's archive, not a dependency of vprinter.
apt-get install -y -q --no-install-recommends cups-ipp-utils
version="$(dpkg-query -W -f='${Version}' vprinter)"
echo "installed: vprinter $version on $PRETTY_NAME"
dpkg -s vprinter | sed -n 's/^\(Version\|Depends\|Recommends\):/  &/p'
[[ "$(vprinter --version)" == "vprinter $version" ]] || fail "vprinter --version says '$(vprinter --version)'"
[[ -s /usr/share/man/man1/vprinter.1.gz && -s /usr/share/man/man1/vprinter-exec.1.gz ]] || fail "no manual pages"
! command -v swift >/dev/null || fail "installing the package brought a Swift toolchain"

# A one-page PDF whose text is in Helvetica, not embedded: the package's fonts (fonts.conf) must print it.
pdf_object() { objects+=("$1"); }
objects=()
text='BT /F1 36 Tf 72 700 Td (vprinter package check) Tj ET'
pdf_object '<< /Type /Catalog /Pages 2 0 R >>'
pdf_object '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'
pdf_object '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'
pdf_object "<< /Length ${#text} >>
stream
$text
endstream"
pdf_object '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'
{
    body=$'%PDF-1.4\n'
    offsets=()
    for index in "${!objects[@]}"; do
        offsets+=("${#body}")
        body+="$((index + 1)) 0 obj"$'\n'"${objects[index]}"$'\nendobj\n'
    done
    xref="${#body}"
    printf '%s' "$body"
    printf 'xref\n0 %d\n0000000000 65535 f \n' "$((${#objects[@]} + 1))"
    for offset in "${offsets[@]}"; do printf '%010d 00000 n \n' "$offset"; done
    printf 'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' "$((${#objects[@]} + 1))" "$xref"
} >/tmp/check.pdf

step "vprinter --profile duplex-laser: a PDF printed to PNG"
cd /tmp
vprinter --profile duplex-laser --port 0 --no-dnssd --ready-file /tmp/ready --output-dir /tmp/out >/tmp/run.log 2>&1 &
printer=$!
for _ in $(seq 100); do [[ -s /tmp/ready ]] || sleep 0.2; done
[[ -s /tmp/ready ]] || { cat /tmp/run.log; fail "vprinter did not start"; }
uri="$(head -n1 /tmp/ready)"
echo "printer: $uri"
ipptool -t -f /tmp/check.pdf "$uri" /usr/share/cups/ipptool/print-job.test || fail "ipptool print-job.test"
vprinter wait --url "$uri" --count 1 --timeout 60 >/tmp/wait.json || fail "the job did not end"
kill -TERM "$printer"
wait "$printer" || true
cat /tmp/run.log
# The Helvetica of the PDF printed with the package's font configuration (URW's Nimbus Sans), not the machine's:
# the job record's warning names the font, and the machine's configuration when that was used.
record="$(cat /tmp/out/jobs/1/job.json)"
grep -o '"font Helvetica is not embedded[^"]*"' <<<"$record" || fail "the job record names no font for Helvetica"
! grep -q "the machine's fonts" <<<"$record" || fail "the worker did not find the package's fonts.conf"
grep -q "printed with NimbusSans-Regular" <<<"$record" || fail "Helvetica was not printed with Nimbus Sans"
found="$(vprinter jobs --output-dir /tmp/out --text "package check" --json)"
printf '%s\n' "$found" | head -c 1500
echo
grep -q '"completed"' <<<"$found" || fail "no completed job whose text is 'vprinter package check'"
pngs="$(find /tmp/out -name '*.png' | sort)"
[[ -n "$pngs" ]] || fail "no PNG printed"
for png in $pngs; do
    [[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || fail "$png is no PNG"
    echo "printed: $png ($(stat -c %s "$png") bytes)"
done

step "vprinter exec ... -- ipptool ..."
vprinter exec --profile duplex-laser --port 0 --no-dnssd --output-dir /tmp/out-exec --expect-jobs 1 -- \
    sh -c 'ipptool -t -f /tmp/check.pdf "$VPRINTER_URI" /usr/share/cups/ipptool/get-printer-attributes.test \
        /usr/share/cups/ipptool/print-job.test' || fail "vprinter exec -- ipptool"

if [[ "$run_lintian" == 1 ]]; then
    step "lintian $deb"
    apt-get install -y -q --no-install-recommends lintian >/dev/null
    lintian --info --display-info "$deb" || fail "lintian found errors"
    echo "lintian: done"
fi
step "PASS"
