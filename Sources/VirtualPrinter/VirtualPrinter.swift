// VirtualPrinter module; see DESIGN.md.
