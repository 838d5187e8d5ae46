"""Runs a student's whole program with boardgrade's stub modules importable first."""

import os
import runpy
import sys


def prepare(stubs, script):
    """Makes the program see itself as `python SCRIPT`, with the stubs importable first."""
    sys.argv = [script]
    sys.path[0:1] = [stubs, os.path.dirname(script)]


def run_program(script):
    """Runs the program as `__main__`."""
    runpy.run_path(script, run_name="__main__")


def main(argv):
    stubs, script = argv[1], os.path.abspath(argv[2])
    prepare(stubs, script)
    run_program(script)


if __name__ == "__main__":
    main(sys.argv)
