"""boardgrade adapter for chess/ecs198f (seed 004): serves the call protocol of
specs/chess/PROTOCOL.md on a team's ChessLogic class.

A submission is the course template's `pychess/` folder: the class lives in
`pychess/logic/chess_logic.py` and is imported as `logic.chess_logic`, the way the GUI
(`pychess/main.py`, never imported here) imports it. `pychess/`, `pychess/logic/` and the
folder above `pychess/` go on the import path, so helper modules load whether they are
imported relatively (`from .utils import`), as a package (`from logic.utils import`,
`from pychess.logic.utils import`) or flat (`from utils import`). A team whose folders are
packages (`__init__.py` in `pychess/logic/` and up) has the file imported by its full dotted
name (`pychess.logic.chess_logic`), so that `from ..config import` resolves as in Python.

Whatever student code prints goes to stderr: a response is only the return value or field.

The class, method and field names are data: boardgrade appends a last line
`serve_interface({...})` with the interface of the dialect or variant graded (seed 004's is
ecs198f.json); the commands keep the handout's names on the wire.
"""

import _ast as ast
import importlib
import os
import sys

from boardgrade_adapter import (NOTHING, claim_protocol_stdout, frames_of, load_submission, package_name, serve,
                                standard_fds_kept)
from boardgrade_source import parse, read_source

CLASS = "ChessLogic"
"""The class served; `serve_interface` sets the one the interface names."""
SYMBOLS = "PNBRQKpnbrqk"


def fail(message):
    print("boardgrade: %s" % message, file=sys.stderr)
    sys.exit(1)


class student_io:
    """Student prints go to stderr and student reads see an empty stdin (one file kept open
    across calls, opened again if student code closed it: an `open` per call costs more than
    a short call)."""

    empty = None

    def __enter__(self):
        self.saved = sys.stdout, sys.stdin
        if student_io.empty is None or student_io.empty.closed:
            student_io.empty = open(os.devnull)
        sys.stdout = sys.stderr
        sys.stdin = student_io.empty

    def __exit__(self, *_error):
        sys.stdout, sys.stdin = self.saved
        return False


def inside(path, root):
    return os.path.isfile(path) and os.path.abspath(path).startswith(root + os.sep)


def describe(error, root):
    """`TypeName: message (file line N)`, N being the submission's line nearest the error."""
    if isinstance(error, SyntaxError) and error.filename and inside(error.filename, root):
        return "SyntaxError: %s (%s line %s)" % (error.msg, os.path.relpath(error.filename, root), error.lineno)
    text = str(error).strip().splitlines()
    found = "%s: %s" % (type(error).__name__, text[0] if text else "")
    frames = [f for f in frames_of(error.__traceback__) if inside(f.filename, root)]
    if frames:
        found += " (%s line %s)" % (os.path.relpath(frames[-1].filename, root), frames[-1].lineno)
    return found


def import_submission(entry):
    """Imports the entry file the way the template's GUI does, with its folders on the path.
    Returns the module and the folder that error messages name files from."""
    entry = os.path.abspath(entry)
    folder = os.path.dirname(entry)
    name = os.path.splitext(os.path.basename(entry))[0]
    if os.path.basename(folder) == "logic":
        pychess = os.path.dirname(folder)
        roots = [pychess, folder, os.path.dirname(pychess)]
        module_name = "logic." + name
        shown = os.path.dirname(pychess)
    else:
        roots = [folder]
        module_name = name
        shown = folder
    package = package_name(entry)
    if package is not None:
        # In a package (`pychess/__init__.py`, `pychess/logic/__init__.py`) the file is
        # imported by its full name from above the topmost package, as `python -m` would:
        # as `logic.chess_logic`, `from ..config import` would go past its top-level package.
        above, module_name = package
        roots.insert(0, above)
    sys.path[:0] = roots
    # Should anything reach for pygame, no window or sound opens and no banner prints.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        with student_io(), standard_fds_kept():
            return importlib.import_module(module_name), shown
    except (Exception, SystemExit) as error:
        if not stopped_by_own_program(error, entry):
            fail("cannot import %s: %s" % (os.path.relpath(entry, shown), describe(error, shown)))
        print("boardgrade: %s: its top-level program stopped the import (%s); loading its "
              "definitions without it" % (os.path.relpath(entry, shown), describe(error, shown)),
              file=sys.stderr)
    sys.modules.pop(module_name, None)
    with student_io():
        return load_submission(entry, module_name, module_name.rpartition(".")[0]), shown


def stopped_by_own_program(error, entry):
    """Whether the import failed in a top-level statement of the entry file itself that is
    not an import: a test game left at the bottom (`input()` at the end of input, `exit()`,
    a failing assert). The class is graded as the project's GUI uses it, without that
    program; a broken helper module or a syntax error still stops the import."""
    if isinstance(error, SyntaxError):
        return False
    frames = [f for f in frames_of(error.__traceback__)
              if os.path.abspath(f.filename) == entry and f.name == "<module>"]
    if not frames:
        return False
    try:
        tree = parse(read_source(entry), entry)
    except (SyntaxError, ValueError):
        return False
    line = frames[0].lineno
    for stmt in tree.body:
        if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
            return not isinstance(stmt, (ast.Import, ast.ImportFrom))
    return False


def construct(module, shown):
    cls = getattr(module, CLASS, None)
    if not isinstance(cls, type):
        classes = sorted(n for n, v in vars(module).items()
                         if isinstance(v, type) and getattr(v, "__module__", None) == module.__name__)
        found = ", ".join(classes) if classes else "none"
        fail("%s defines no class %s (classes defined there: %s)"
             % (os.path.relpath(module.__file__, shown), CLASS, found))
    try:
        with student_io():
            return cls()
    except (Exception, SystemExit) as error:
        fail("%s() failed: %s" % (CLASS, describe(error, shown)))


MISSING = object()


def lookup(game, name):
    """The object's attribute `name`, or MISSING."""
    with student_io():
        try:
            return getattr(game, name)
        except AttributeError:
            return MISSING


def missing_field(game, name):
    fields = sorted(vars(game)) if hasattr(game, "__dict__") else []
    return AttributeError("%s has no field %r (its fields: %s); the handout names it %r"
                          % (CLASS, name, ", ".join(fields) or "none", name))


def field(game, name):
    value = lookup(game, name)
    if value is MISSING:
        raise missing_field(game, name)
    if callable(value):
        raise TypeError("%s.%s is a method; the handout asks for a field" % (CLASS, name))
    return value


def square(row, col):
    return "%s%d" % ("abcdefgh"[col], 8 - row)


def board_lines(board):
    """The board field as 8 lines of 8 symbols, or a ValueError naming what is wrong."""
    if not isinstance(board, (list, tuple)) or len(board) != 8:
        raise ValueError("board must be a list of 8 rows, got %s" % shape(board))
    lines = []
    for row, cells in enumerate(board):
        if not isinstance(cells, (list, tuple)) or len(cells) != 8:
            raise ValueError("board[%d] must be a list of 8 squares, got %s" % (row, shape(cells)))
        line = ""
        for col, cell in enumerate(cells):
            if cell == "":
                line += "."
            elif isinstance(cell, str) and len(cell) == 1 and cell in SYMBOLS:
                line += cell
            else:
                raise ValueError("square %s (board[%d][%d]) holds %r; expected '' or one of %s"
                                 % (square(row, col), row, col, cell, SYMBOLS))
        lines.append(line)
    return "\n".join(lines)


def shape(value):
    if isinstance(value, (list, tuple)):
        return "a %s of %d" % (type(value).__name__, len(value))
    return repr(value)[:80]


def serve_interface(interface):
    """Serves the protocol on the class, method and fields the interface names (boardgrade
    appends the call with the interface of the dialect or variant graded)."""
    global CLASS
    CLASS = interface["class"]
    method = interface["methods"]["play_move"]
    fields = interface["fields"]
    claim_protocol_stdout()
    module, shown = import_submission(sys.argv[1])
    current = [construct(module, shown)]
    for name in fields.values():
        if lookup(current[0], name) is MISSING:
            print("boardgrade: warning: %s" % missing_field(current[0], name), file=sys.stderr)

    def new_game():
        """A new game: a new instance of the class (a battery plays many in one session)."""
        try:
            with student_io():
                current[0] = getattr(module, CLASS)()
        except Exception as error:
            print("boardgrade: %s() raised %s" % (CLASS, describe(error, shown)), file=sys.stderr)
            raise
        return NOTHING

    def play_move(move=""):
        play = lookup(current[0], method)
        if not callable(play):
            raise AttributeError("%s has no method %r" % (CLASS, method))
        try:
            with student_io():
                return repr(play(move))
        except Exception as error:
            # The protocol line names the error; stderr also says where it happened.
            print("boardgrade: %s(%r) raised %s" % (method, move, describe(error, shown)), file=sys.stderr)
            raise

    def board():
        return board_lines(field(current[0], fields["board"]))

    def result():
        return repr(field(current[0], fields["result"]))

    serve({"play_move": play_move, "board": board, "result": result, "new_game": new_game})
