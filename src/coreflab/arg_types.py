"""Argument types for counts and probabilities: `--jobs 0` or `--runs -1` is refused by argparse with the option's
name (exit 2), instead of running with nothing to do or failing deep inside a command."""

import argparse


def at_least(minimum):
    """An argparse `type` for an integer >= minimum."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def probability(text):
    """An argparse `type` for a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value
