// IPP module; see DESIGN.md.
