"""Run a `coreflab` command module in process, through its own argument parser (what the CLI
does, without a subprocess), so tests see its return value, files and exceptions."""

import argparse


def run_command(module, argv):
    """`module.run(args)` for `argv` parsed by `module.add_arguments`."""
    p = argparse.ArgumentParser()
    module.add_arguments(p)
    return module.run(p.parse_args([str(a) for a in argv]))
