// Rasterizer module; see DESIGN.md.
