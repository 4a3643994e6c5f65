"""The command line of vptest.services, for bash scripts (scripts/lib/services.sh) and the Swift tests:

  python3 -m vptest.services start avahi|cupsd [--logs-as NAME]
      starts the service, or reuses one that answers; prints shell lines for the caller to eval: the variables to
      export, and VP_AVAHI_OWNED=1 or VP_CUPSD_OWNED=1 (not exported) when it was started here
  python3 -m vptest.services stop avahi|cupsd [--logs-as NAME]
      stops the service of VP_AVAHI_DIR or VP_CUPSD_DIR, keeping its logs in VP_ARTIFACTS/services/ (cupsd's in
      the subfolder NAME); prints the shell lines that forget it. Only the shell that started it (VP_*_OWNED) calls
      this: a reused service is left to the one that started it.
  python3 -m vptest.services stop-daemon|start-daemon|restart-daemon|stop-bus|start-bus
      stops or starts the private Avahi daemon (the bus stays up) or the private bus, of VP_AVAHI_DIR
  python3 -m vptest.services reachable [USER]
      exits 0 when the Avahi daemon answers on DBUS_SYSTEM_BUS_ADDRESS (as USER: CUPS's backends run as lp)

With PYTHONPATH=scripts/harness, under the system python3. Exit status 1 (and a message) when a service does not
start or stop, 2 on a usage error.
"""
import argparse
import os
import shlex
import subprocess
import sys

from . import ServiceError, avahi_daemon, cupsd

# The steps on the private daemon and bus of VP_AVAHI_DIR, by command.
AVAHI_STEPS = {"stop-daemon": avahi_daemon.stop_daemon, "start-daemon": avahi_daemon.start_daemon,
               "restart-daemon": avahi_daemon.restart_daemon, "stop-bus": avahi_daemon.stop_bus,
               "start-bus": avahi_daemon.start_bus}
# What forgets a stopped service in the shell that evaluates the lines of `stop`.
FORGET = {"avahi": ["export VP_AVAHI_DIR=''", "unset VP_AVAHI_OWNED"],
          "cupsd": ["unset CUPS_SERVER CUPS_STATEDIR VP_CUPSD_DIR VP_CUPSD_OWNED"]}


def exports(variables):
    """``export NAME=VALUE`` lines, shell-quoted."""
    return ["export %s=%s" % (name, shlex.quote(value)) for name, value in variables.items()]


def start(service, logs_as):
    if service == "avahi":
        variables, owned = avahi_daemon.start()
        # The Swift tests of the Avahi publisher run when this says a daemon is there.
        lines = exports(dict(variables, VPRINTER_TEST_AVAHI="1"))
    else:
        variables, owned = cupsd.start(logs_as=logs_as)
        lines = exports(variables)
    if owned:
        lines.append("VP_%s_OWNED=1" % service.upper())
    return lines


def stop(service, logs_as):
    if service == "avahi":
        if os.environ.get("VP_AVAHI_DIR"):
            avahi_daemon.stop(os.environ["VP_AVAHI_DIR"])
    elif os.environ.get("VP_CUPSD_DIR"):
        cupsd.stop(os.environ["VP_CUPSD_DIR"], logs_as)
    return FORGET[service]


def private_folder():
    folder = os.environ.get("VP_AVAHI_DIR")
    if not folder:
        raise ServiceError("no private Avahi daemon (VP_AVAHI_DIR is empty): the daemon in use was not started by "
                           "vptest.services")
    return folder


def main(arguments=None):
    parser = argparse.ArgumentParser(prog="python3 -m vptest.services", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("start", "stop"):
        command = commands.add_parser(name)
        command.add_argument("service", choices=["avahi", "cupsd"])
        command.add_argument("--logs-as", default="cupsd", help="cupsd's subfolder of VP_ARTIFACTS/services")
    for name in AVAHI_STEPS:
        commands.add_parser(name)
    commands.add_parser("reachable").add_argument("user", nargs="?")
    options = parser.parse_args(arguments)
    try:
        if options.command in ("start", "stop"):
            lines = (start if options.command == "start" else stop)(options.service, options.logs_as)
            print("\n".join(lines))
        elif options.command == "reachable":
            reached = (avahi_daemon.reachable_as(options.user) if options.user else avahi_daemon.reachable())
            return 0 if reached else 1
        else:
            AVAHI_STEPS[options.command](private_folder())
    except (ServiceError, OSError, subprocess.SubprocessError) as problem:
        print("vptest.services %s: %s" % (options.command, problem), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
