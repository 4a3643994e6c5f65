# shellcheck shell=bash
# The PWG raster sample corpus that CUPS's ipp-everywhere.test prints (PWG 5100.14 section 5.4): files named
# pwg-raster-samples-<res>dpi/<type>/<name>-<type>-<res>dpi.pwg, rendered with Ghostscript's pwgraster device
# (PWG 5102.4) from the sample pages of documents.sh. Only the files the suite names for the resolutions and
# types asked for are made; they are kept in a cache folder keyed by everything that shapes them (this file,
# documents.sh, the Ghostscript version), so a rerun makes nothing.
#
# Usage (from another bash script):
#   source scripts/lib/pwg-corpus.sh
#   pwg_corpus_printer_capabilities URI       # prints "RESOLUTIONS TYPES" of a running printer, e.g.
#                                             # "300,600 black_1,sgray_8" (PWG 5100.12 pwg-raster-document-*)
#   pwg_corpus_make CACHE SUITE RESOLUTIONS TYPES
#                                             # makes the files SUITE (a .test file) names for those
#                                             # resolutions and types; prints the corpus folder, which holds
#                                             # the pwg-raster-samples-<res>dpi folders
#   pwg_corpus_for_printer URI CACHE SUITE    # both: the corpus for what the printer supports

PWG_CORPUS_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/documents.sh
source "$PWG_CORPUS_LIB_DIR/documents.sh"

# Sheet size of the "-4x6" samples in points (4 x 6 inches, PWG 5101.1 na_index-4x6_4x6in).
readonly PWG_CORPUS_4X6_POINTS="288 432"

# Pages in the "document-" samples; the "onepage-" samples have one.
readonly PWG_CORPUS_DOCUMENT_PAGES=2

# Prints the Ghostscript pwgraster options for a sample type: the color space (CUPS cups_cspace_t numbering,
# which PWG 5102.4 section 4.3.1.5 shares: 3 black, 6 CMYK, 18 sGray, 19 sRGB) and the bits per color.
# Returns 1 for a type it does not know.
pwg_corpus_type_options() {
    case "$1" in
    black-1) echo "-dcupsColorSpace=3 -dcupsBitsPerColor=1" ;;
    sgray-8) echo "-dcupsColorSpace=18 -dcupsBitsPerColor=8" ;;
    srgb-8) echo "-dcupsColorSpace=19 -dcupsBitsPerColor=8" ;;
    srgb-16) echo "-dcupsColorSpace=19 -dcupsBitsPerColor=16" ;;
    cmyk-8) echo "-dcupsColorSpace=6 -dcupsBitsPerColor=8" ;;
    *) return 1 ;;
    esac
}

# Prints the Ghostscript sheet size options for a sample name by its suffix (-a4, -letter, -4x6); returns 1
# for a name without one of them.
pwg_corpus_size_options() {
    local width height
    case "$1" in
    *-a4) echo "-sPAPERSIZE=a4 -dFIXEDMEDIA" ;;
    *-letter) echo "-sPAPERSIZE=letter -dFIXEDMEDIA" ;;
    *-4x6)
        read -r width height <<<"$PWG_CORPUS_4X6_POINTS"
        echo "-dDEVICEWIDTHPOINTS=$width -dDEVICEHEIGHTPOINTS=$height -dFIXEDMEDIA"
        ;;
    *) return 1 ;;
    esac
}

# Prints the PostScript program of a sample name: the documents.sh JPEG (made into SOURCES) fitted to the sheet
# for color.jpg-* and gray.jpg-*, documents.sh pages for document-* and onepage-*. Returns 1 for another name.
pwg_corpus_program() {
    local name="$1" sources="$2" page kind
    case "$name" in
    color.jpg-* | gray.jpg-*)
        kind="${name%%.jpg-*}"
        [[ -f "$sources/$kind.jpg" ]] || documents_make_jpeg "$kind" "$sources/$kind.jpg"
        # viewjpeg.ps (Ghostscript's library) scales the image to the clipping area, keeping its aspect.
        printf '(viewjpeg.ps) runlibfile (%s) viewJPEG showpage\n' "$sources/$kind.jpg"
        ;;
    document-*)
        for ((page = 1; page <= PWG_CORPUS_DOCUMENT_PAGES; page++)); do
            documents_page_program "$name page $page"
        done
        ;;
    onepage-*) documents_page_program "$name" ;;
    *) return 1 ;;
    esac
}

# Renders the sample file RELATIVE (its name, type and resolution are in its path) into CORPUS unless it is
# there. The file is written beside its final name and renamed, so an interrupted run leaves no partial file.
pwg_corpus_render() {
    local corpus="$1" relative="$2"
    local path="$corpus/$relative"
    [[ -s "$path" ]] && return 0
    local file="${relative##*/}" res type name
    [[ "$file" =~ ^(.+)-(black-1|sgray-8|srgb-8|srgb-16|cmyk-8)-([0-9]+)dpi\.pwg$ ]] || {
        echo "pwg-corpus: cannot tell name, type and resolution of $relative" >&2
        return 1
    }
    name="${BASH_REMATCH[1]}" type="${BASH_REMATCH[2]}" res="${BASH_REMATCH[3]}"
    local type_options size_options program
    if ! type_options="$(pwg_corpus_type_options "$type")" ||
        ! size_options="$(pwg_corpus_size_options "$name")" ||
        ! program="$(pwg_corpus_program "$name" "$corpus/sources")"; then
        echo "pwg-corpus: no recipe for $relative" >&2
        return 1
    fi
    mkdir -p "$(dirname "$path")"
    # shellcheck disable=SC2086 # the option strings are word lists
    gs -q -dBATCH -dNOPAUSE -dSAFER --permit-file-read="$corpus/sources/" -sDEVICE=pwgraster \
        $type_options $size_options -r"$res" -o "$path.partial" - <<<"$program" 2>/dev/null || {
        echo "pwg-corpus: ghostscript failed on $relative" >&2
        rm -f "$path.partial"
        return 1
    }
    mv -f "$path.partial" "$path"
}

# Prints the cache key: a digest of the generator, the sample pages and the Ghostscript version.
pwg_corpus_key() {
    { cat "$PWG_CORPUS_LIB_DIR/pwg-corpus.sh" "$PWG_CORPUS_LIB_DIR/documents.sh"; gs --version; } |
        sha256sum | cut -c1-16
}

# Makes, under CACHE, the sample files SUITE names for RESOLUTIONS (comma-separated dots per inch) and TYPES
# (comma-separated, as IPP keywords black_1 or file spellings black-1); prints the corpus folder.
pwg_corpus_make() {
    local cache="$1" suite="$2" resolutions=",$3," types=",${4//_/-},"
    local corpus
    corpus="$cache/$(pwg_corpus_key)"
    mkdir -p "$corpus/sources"
    local stale
    for stale in "$cache"/*; do
        # Corpora of other keys were made by another generator, documents.sh or Ghostscript: never used again.
        [[ "$stale" != "$corpus" && "$(basename "$stale")" =~ ^[0-9a-f]{16}$ ]] && rm -rf "$stale"
    done
    local relative res type failed=0 made=0 placeholders=0
    while read -r relative; do
        [[ "$relative" =~ ^pwg-raster-samples-([0-9]+)dpi/([a-z0-9-]+)/ ]] || continue
        res="${BASH_REMATCH[1]}" type="${BASH_REMATCH[2]}"
        if [[ "$resolutions" != *",$res,"* || "$types" != *",$type,"* ]]; then
            # ipptool (CUPS 2.4) stops the whole suite at a FILE it cannot open, even under SKIP-IF-MISSING,
            # so every file the suite names exists; the ones not asked for are empty. Their tests are skipped by
            # SKIP-IF-NOT-DEFINED, as the printer does not list that resolution or does not list that type.
            [[ -e "$corpus/$relative" ]] && continue
            mkdir -p "$(dirname "$corpus/$relative")"
            : >"$corpus/$relative"
            placeholders=$((placeholders + 1))
            continue
        fi
        [[ -s "$corpus/$relative" ]] && continue
        if pwg_corpus_render "$corpus" "$relative"; then
            made=$((made + 1))
        else
            failed=$((failed + 1))
        fi
    done < <(grep -oE '^[[:space:]]*FILE pwg-raster-samples-[0-9]+dpi/[^[:space:]]+\.pwg' "$suite" |
        awk '{ print $2 }' | sort -u)
    echo "pwg-corpus: made $made files for ${resolutions:1:-1} dpi, ${types:1:-1}" \
        "($placeholders empty placeholders) in $corpus" >&2
    printf '%s\n' "$corpus"
    ((failed == 0))
}

# Prints "RESOLUTIONS TYPES" from the printer's pwg-raster-document-resolution-supported (square resolutions
# in dots per inch) and pwg-raster-document-type-supported, both comma-separated.
pwg_corpus_printer_capabilities() {
    local uri="$1" dir
    dir="$(mktemp -d)"
    cat >"$dir/capabilities.test" <<'EOF'
{
	NAME "PWG raster capabilities"
	OPERATION Get-Printer-Attributes
	GROUP operation-attributes-tag
	ATTR charset attributes-charset utf-8
	ATTR naturalLanguage attributes-natural-language en
	ATTR uri printer-uri $uri
	ATTR keyword requested-attributes pwg-raster-document-resolution-supported,pwg-raster-document-type-supported
	STATUS successful-ok
	DISPLAY pwg-raster-document-resolution-supported
	DISPLAY pwg-raster-document-type-supported
}
EOF
    local output rc=0
    output="$(ipptool -t -T 30 "$uri" "$dir/capabilities.test" 2>&1)" || rc=$?
    rm -rf "$dir"
    ((rc == 0)) || {
        echo "pwg-corpus: could not read the printer's PWG raster attributes from $uri" >&2
        return 1
    }
    local resolutions types
    resolutions="$(awk -F' = ' '/pwg-raster-document-resolution-supported \(/ { print $2 }' <<<"$output" |
        tr ',' '\n' | sed -nE 's/^ *([0-9]+)dpi *$/\1/p; s/^ *([0-9]+)x\1dpi *$/\1/p' | paste -sd, -)"
    types="$(awk -F' = ' '/pwg-raster-document-type-supported \(/ { print $2 }' <<<"$output" | tr -d ' ')"
    printf '%s %s\n' "$resolutions" "$types"
}

# Makes the corpus for what the printer at URI supports (see pwg_corpus_make); prints the corpus folder.
pwg_corpus_for_printer() {
    local uri="$1" cache="$2" suite="$3" resolutions types
    read -r resolutions types < <(pwg_corpus_printer_capabilities "$uri") || return 1
    [[ -n "$resolutions" && -n "$types" ]] || {
        echo "pwg-corpus: $uri lists no PWG raster resolutions or types" >&2
        return 1
    }
    pwg_corpus_make "$cache" "$suite" "$resolutions" "$types"
}
