"""User-facing errors: one line, no traceback, exit status 2.

Every mistake a user can make (a malformed file, a config typo, a missing corpus)
raises `UserError`; the CLI prints its message and exits 2. A missing or unreadable file
(`OSError`) is one line too; any other error prints its type and message on one line, exit 1,
and COREFLAB_TRACEBACK=1 shows its traceback (for a bug report). Warnings, too, are one line
(`one_line_warnings`).
"""


class UserError(Exception):
    """An error caused by user input; printed as one line by the CLI."""

    exit_code = 2


class InputFormatError(UserError):
    """Malformed input file: names the file, the line and what was expected."""

    def __init__(self, path, line, message):
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


def one_line_warnings(label):
    """A `warnings.formatwarning` printing `coreflab <label>: warning: <message>` alone, without Python's
    source file, line number and code line: a log reader needs the message, not our source."""

    def formatted(message, category, filename, lineno, line=None):
        return f"coreflab {label}: warning: {message}\n"

    return formatted
