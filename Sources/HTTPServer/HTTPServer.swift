// HTTPServer module; see DESIGN.md.
