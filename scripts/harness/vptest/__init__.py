"""vptest: the shared harness of the end-to-end pytest suites under scripts/ (see scripts/harness/README.md).

Loaded into a suite as the pytest plugin ``vptest.plugin`` by scripts/lib/pytest-stage.sh, with scripts/harness and
python/src (the project's own ``vprinter`` package) on the path. Import the module of what you need:

    from vptest import calls, openapi, records, waiting
    from vptest.printer import start
"""
