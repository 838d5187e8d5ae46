"""Runs a student's whole program with boardgrade's stub modules importable first.

Each time the program asks for a line of input (`input()`, `sys.stdin.readline()`, a line of
`for line in sys.stdin`), a read marker goes to stdout, after everything printed before it:
the harness splits the output there, so each typed line owns exactly what followed it. A read
of the whole input at once writes a bulk marker instead (the harness then matches the output
as one stream). See `src/compare/reads.rs`.
"""

import os
import runpy
import sys

_HARNESS = os.path.dirname(os.path.abspath(__file__))

READ_MARK = "\x00boardgrade:read\x00"
BULK_MARK = "\x00boardgrade:bulk\x00"


class MarkedStdin:
    """sys.stdin, marking on stdout where the program asks for input."""

    def __init__(self, stream):
        self._stream = stream
        self._at_end = False

    def _mark(self, mark):
        # Whatever the program printed goes first, through whichever stdout it used.
        for out in (sys.stdout, sys.__stdout__):
            try:
                out.flush()
            except Exception:
                pass
        try:
            sys.__stdout__.write(mark)
            sys.__stdout__.flush()
        except Exception:
            pass

    def readline(self, *args):
        self._mark(READ_MARK)
        line = self._stream.readline(*args)
        if not line and args[:1] != (0,):
            if self._at_end:
                self._ended()
            self._at_end = True
        return line

    def _ended(self):
        """The program asks for a line again after being told the input has ended. `input()`
        stops a program at the end (EOFError); a game loop on `sys.stdin.readline()` gets ''
        and would go on printing turns on no input until the output limit. The scenario
        ended with the input, so the program ends as `input()` would have ended it."""
        try:
            sys.stdout.flush()
        except Exception:
            pass
        try:
            sys.__stderr__.write("EOFError: EOF when reading a line (boardgrade: no more input)\n")
            sys.__stderr__.flush()
        except Exception:
            pass
        os._exit(1)

    def read(self, *args):
        self._mark(BULK_MARK)
        return self._stream.read(*args)

    def readlines(self, *args):
        self._mark(BULK_MARK)
        return self._stream.readlines(*args)

    def __iter__(self):
        return self

    def __next__(self):
        # A `for line in sys.stdin` loop ends at the end of input, and the program goes on.
        self._mark(READ_MARK)
        line = self._stream.readline()
        if not line:
            raise StopIteration
        return line

    def __getattr__(self, name):
        return getattr(self._stream, name)


def prepare(stubs, script):
    """Makes the program see itself as `python SCRIPT`, with the stubs importable first and
    its reads marked."""
    sys.argv = [script]
    sys.path[0:1] = [stubs, os.path.dirname(script)]
    sys.stdin = MarkedStdin(sys.stdin)


def run_program(script):
    """Runs the program as `__main__`; a Python 2 program, as its 2to3 translation."""
    try:
        runpy.run_path(script, run_name="__main__")
        return
    except SyntaxError:
        # Only a program that did not compile is translated: one whose own code raised the
        # error (or a module it imports) has the program's frames in its traceback.
        translated = None if ran(sys.exc_info()[2], script) else python2_translation(script)
        if translated is None:
            raise
    # Outside the handler: the program's own errors are not chained to Python 3's.
    run_translated(translated, script)


def ran(tb, script):
    """Whether the traceback `tb` passes through the program at `script` (its code ran)."""
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == script:
            return True
        tb = tb.tb_next
    return False


def python2_translation(script):
    """The 2to3 translation of the program at `script` where it is a Python 2 program (see
    `boardgrade_source.python2_translated`), else None."""
    reading = source_reading()
    with open(script, "rb") as handle:
        return reading.python2_translated(reading.decoded(handle.read()))


def run_translated(translated, script):
    """Runs the translated program as `__main__`, as `runpy.run_path` runs a file; its own
    modules are Python 2 as well, most likely: they import translated too."""
    source_reading().translate_imports_from(os.path.dirname(script))
    main = type(sys)("__main__")
    main.__dict__.update(__file__=script, __cached__=None, __loader__=None, __package__=None,
                         __spec__=None, __builtins__=sys.modules["builtins"])
    sys.modules["__main__"] = main
    exec(compile(translated, script, "exec", dont_inherit=True), main.__dict__)


def source_reading():
    """The harness's `boardgrade_source` module. The harness's folder is not on the
    program's path: it is imported from there by name, and the folder taken away again."""
    sys.path.insert(0, _HARNESS)
    try:
        import boardgrade_source
    finally:
        sys.path.remove(_HARNESS)
    return boardgrade_source


def main(argv):
    stubs, script = argv[1], os.path.abspath(argv[2])
    prepare(stubs, script)
    run_program(script)


if __name__ == "__main__":
    main(sys.argv)
