"""Runs a student's whole program with boardgrade's stub modules importable first."""

import os
import runpy
import sys

stubs, script = sys.argv[1], os.path.abspath(sys.argv[2])
sys.argv = [script]
sys.path[0:1] = [stubs, os.path.dirname(script)]
runpy.run_path(script, run_name="__main__")
