"""The table scripts/bench prints: a row a figure, with its reference figure (ippeveprinter's, or another run's)
beside it, their ratio, the goal it is judged by and the verdict."""

ROW = "%-34s %14s %14s %7s %-14s %s"
HEADER = ROW % ("benchmark", "vprinter", "ippeveprinter", "ratio", "goal", "verdict")


def compare(value, reference, goal, at_most=False):
    """(ratio, verdict): ("1.53x", "met") when value / reference is at least ``goal`` (at most, with ``at_most``);
    ("n/a", "missed") without a reference figure."""
    if reference <= 0:
        return "n/a", "missed"
    ratio = value / reference
    return "%.2fx" % ratio, "met" if (ratio <= goal if at_most else ratio >= goal) else "missed"


class Table:
    """The rows so far, and how many goals they missed (a verdict that starts with "missed")."""

    def __init__(self):
        self.rows = []
        self.missed = 0

    def add(self, benchmark, measured, reference, ratio, goal, verdict):
        self.rows.append(ROW % (benchmark, measured, reference, ratio, goal, verdict))
        self.missed += verdict.startswith("missed")

    def print(self):
        print(HEADER)
        for row in self.rows:
            print(row)
