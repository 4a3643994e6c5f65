# shellcheck shell=bash
# Sample documents generated at run time with Ghostscript, so that no binary fixture has to be committed.
#
# Usage (from another bash script):
#   source scripts/lib/documents.sh
#   documents_make_pdf letter out.pdf        # a one-page letter PDF (a4 works too)
#   documents_make_ipptool_set DIR           # the documents CUPS's ipptool suites name in their FILE lines

# A PostScript page: a frame 1/2 inch inside the sheet, a title and a gray and a colored patch, so that rendering,
# margins and color are all visible in the output.
documents_page_program() {
    local title="$1"
    cat <<EOF
/W currentpagedevice /PageSize get 0 get def
/H currentpagedevice /PageSize get 1 get def
0 setgray 2 setlinewidth 36 36 W 72 sub H 72 sub rectstroke
/Helvetica findfont 28 scalefont setfont 72 H 120 sub moveto ($title) show
/Helvetica findfont 12 scalefont setfont 72 H 150 sub moveto (vprinter sample document) show
0.5 setgray 72 72 144 144 rectfill
0.9 0.2 0.1 setrgbcolor 240 72 144 144 rectfill
showpage
EOF
}

# Writes a one-page PDF of the given paper size (letter or a4) to PATH.
documents_make_pdf() {
    local paper="$1" path="$2"
    documents_page_program "$paper page" |
        gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -sPAPERSIZE="$paper" -dFIXEDMEDIA -o "$path" -
}

# Writes a one-page PostScript document of the given paper size to PATH.
documents_make_ps() {
    local paper="$1" path="$2"
    documents_page_program "$paper page" |
        gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=ps2write -sPAPERSIZE="$paper" -dFIXEDMEDIA -o "$path" -
}

# Writes a small JPEG photo-like image (color or gray) to PATH.
documents_make_jpeg() {
    local kind="$1" path="$2" device=jpeg
    [[ "$kind" == gray ]] && device=jpeggray
    documents_page_program "$kind image" |
        gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE="$device" -r30 -g180x240 -dFIXEDMEDIA -dPDFFitPage \
            -o "$path" -
}

# Writes, into DIR, every document that CUPS's ipp-1.1/2.x/everywhere suites open by name: document-a4.pdf,
# document-letter.pdf, document-a4.ps, document-letter.ps, color.jpg, gray.jpg.
documents_make_ipptool_set() {
    local dir="$1"
    mkdir -p "$dir"
    documents_make_pdf a4 "$dir/document-a4.pdf"
    documents_make_pdf letter "$dir/document-letter.pdf"
    documents_make_ps a4 "$dir/document-a4.ps"
    documents_make_ps letter "$dir/document-letter.ps"
    documents_make_jpeg color "$dir/color.jpg"
    documents_make_jpeg gray "$dir/gray.jpg"
}
