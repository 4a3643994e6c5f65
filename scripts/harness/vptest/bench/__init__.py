"""scripts/bench: vprinter measured against CUPS's ippeveprinter, one module a group of benchmarks (load: wrk
against IPP; startup: start-up and fleets; records: job records at scale; render: rendering and memory), with what
they share: context (the settings and the printers started), processes (timed starts, /proc figures) and report
(the table). main runs them. Standard library only, and no pytest: it runs with the system python3."""
