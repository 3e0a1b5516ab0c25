# Copyright 2031 Example. Licensed under a made-up licence.
"""Tools for counting marmots, written for graphrag's tests."""

import os


@cached
def count_marmots(field):
    """Return how many marmots live in field."""
    return len(field)


class Burrow:
    """A marmot's home."""

    def depth(self):
        return 3
