"""A module for the test of the ``:raises:`` checker (tests/test_analysis.py): not imported."""


def function(x):
    """Documents TypeError only.

    :raises TypeError: if x is not an int.
    """
    if not isinstance(x, int):
        raise TypeError("x")
    if x < 0:
        raise ValueError("x")

    def inner():
        raise LookupError("a nested function documents its own")
    return inner


def documented(x):
    """Documents both.

    :raises TypeError, ValueError: for a bad x.
    """
    if x is None:
        raise TypeError("x")
    raise ValueError("x")


class Thing:
    def method(self):
        """No :raises: line."""
        raise KeyError("k")

    def _private(self):
        raise KeyError("k")
