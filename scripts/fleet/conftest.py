"""Fixtures of the fleet tests (printers at runtime, power, health, configuration, fleets), on the harness
(scripts/harness/vptest): ``printer`` (one default printer, no DNS-SD), ``start_printer`` and ``avahi_browser``
come from vptest.plugin.

Avahi is the loopback-only daemon scripts/fleet-test makes reachable; tests that need it are skipped with a reason
when none answers. Printer names carry the process id and a random suffix: other people's daemons share multicast
on lo.
"""
import pytest

from vptest.names import unique


@pytest.fixture
def advertised(start_printer, avahi_browser):
    """A printer advertised over DNS-SD on the test daemon, with a unique name, once it is browsable."""
    name = unique("fleet-main")
    running = start_printer(name=name, dnssd=True)
    assert avahi_browser.wait(name) is not None, "the first printer was never browsable: %s" % running.log
    return running
