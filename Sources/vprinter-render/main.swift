// The render worker: filled in by the rendering work.
