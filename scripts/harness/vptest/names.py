"""Names no other test on this machine uses: printers advertised on loopback share multicast with every other run."""
import os
import uuid


def unique(prefix):
    """``prefix``, this process's id and a random suffix: ``web-4242-1a2b3c``."""
    return "%s-%d-%s" % (prefix, os.getpid(), uuid.uuid4().hex[:6])
