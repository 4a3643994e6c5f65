# The repository's VERSION file, copied here by scripts/set-version (pip builds python/ alone); pyproject.toml reads
# it as the package's version.
__version__ = "0.2.0"
