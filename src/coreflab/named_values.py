"""Repeated NAME=VALUE options (`--score-json SYSTEM=PATH`, `--fitted LEARNER=MODEL`): one parser,
one form of error for an item without its `=`, its name or its value."""

from coreflab.errors import UserError


def named_values(items, flag, form):
    """{name: value} of the items; a malformed one is a UserError naming the flag and `form` (e.g. SYSTEM=PATH)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise UserError(f"{flag} {item!r}: expected {form}")
        out[name] = value
    return out
