"""The program launcher (whole programs with stub modules, reads marked on stdout), the
course's graphics stand-in, and the loaded runner's helpers."""

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import SRC, load_script

launch = load_script("execution/python/boardgrade_launch.py", "boardgrade_launch")
runner = load_script("execution/python/boardgrade_fork.py", "boardgrade_fork")
READ, BULK = launch.READ_MARK, launch.BULK_MARK


def run_program(tmp_path, source, stdin):
    """Runs `source` as a whole program the way boardgrade does, with the graphics stub."""
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    with open(os.path.join(SRC, "games", "one_d_chess", "graphics_stub.py"), encoding="utf-8") as handle:
        (stubs / "graphics.py").write_text(handle.read(), encoding="utf-8")
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-B", os.path.join(SRC, "execution", "python", "boardgrade_launch.py"), str(stubs),
         str(program)],
        input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )


def test_each_line_read_is_marked_after_what_was_printed_before_it(tmp_path):
    done = run_program(tmp_path, """
        import sys
        print("board")
        first = input("move? ")
        print("got", first)
        for line in sys.stdin:
            print("line", line.strip())
        print("end", __name__, sys.argv[0].endswith("program.py"))
    """, "a\nb\nc\n")
    assert done.returncode == 0, done.stderr
    # input() writes its prompt before it reads.
    assert done.stdout == ("board\nmove? " + READ + "got a\n" + READ + "line b\n" + READ + "line c\n" + READ
                           + "end __main__ True\n")


def test_a_whole_read_is_a_bulk_mark(tmp_path):
    done = run_program(tmp_path, """
        import sys
        print("start")
        print(len(sys.stdin.read().split()))
    """, "a b\nc\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "start\n" + BULK + "3\n"


def test_asking_again_after_the_end_of_input_ends_the_program(tmp_path):
    done = run_program(tmp_path, """
        import sys
        while True:
            line = sys.stdin.readline()
            print("turn", repr(line))
    """, "x\n")
    assert done.returncode == 1
    assert done.stdout.count("turn") == 2
    assert "EOFError: EOF when reading a line (boardgrade: no more input)" in done.stderr


def test_the_graphics_stub_draws_nothing_however_it_is_imported(tmp_path):
    done = run_program(tmp_path, """
        from graphics import *
        import graphics as module
        gui = graphics(700, 200, "1 Dimensional Chess")
        gui.rectangle(0, 0, 700, 200, "brown")
        gui.update_frame(30)
        win = module.GraphWin("board", 400, 400)
        module.Circle(module.Point(1, 2), 3).draw(win)
        print(gui.text(1, 2, "x"), win.getMouse(), canvas is module.canvas)
        print(hasattr(module, "__path__"), sorted(k for k in dir() if not k.startswith("__")))
    """, "")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "None None True\nFalse ['canvas', 'graphics', 'gui', 'module', 'win']\n"


def test_a_runner_scenario_ends_with_the_status_a_fresh_interpreter_would(capsys):
    assert runner._exit_status(SystemExit()) == 0
    assert runner._exit_status(SystemExit(3)) == 3
    assert runner._exit_status(SystemExit(256 + 7)) == 7
    assert runner._exit_status(SystemExit("bye")) == 1
    assert capsys.readouterr().err == "bye\n"


def test_a_read_of_stdin_while_loading_is_noted_and_fails():
    class Noting(object):
        reads_stdin = False

    noting = Noting()
    stdin = runner._StdinAtImport(noting)
    assert stdin.isatty() is False
    assert stdin.encoding == sys.__stdin__.encoding
    assert not noting.reads_stdin
    with pytest.raises(runner._ReadsStdin):
        stdin.readline()
    assert noting.reads_stdin
    with pytest.raises(runner._ReadsStdin):
        iter(stdin)


# Loads boardgrade_fork.py (its path is the first argument) as `runner`, runs `before`,
# and starts a seed watch, as the runner does before the import.
WATCHING = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("boardgrade_fork", sys.argv[1])
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)
{before}
watch = runner._SeedWatch()
watch.watch()
"""


def watched(script, before=""):
    """What `script` prints, run after WATCHING in an interpreter of its own."""
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", WATCHING.format(before=before) + script,
         os.path.join(SRC, "execution", "python", "boardgrade_fork.py")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("before, import_time, seeded", [
    ("", "import random\nrandom.seed(7)", True),
    ("", "from random import seed\nseed(a=3)", True),
    ("", "import random as r\nr.setstate(r.getstate())", True),
    ("", "import random\nrandom.seed()\nrandom.random()", False),
    ("", "import random\nrandom.seed(None)", False),
    ("", "import json", False),
    ("import random", "random.seed(7)", True),
    ("import random", "random.random()", False),
])
def test_the_runner_notes_whether_the_import_seeds_random_itself(before, import_time, seeded):
    """A copy keeps the runner's `random` state only where the import seeded it (a fresh
    process then starts every scenario from it); the watch is gone once the import is."""
    script = import_time + """
watch.unwatch()
import random
print(watch.seeded, random.seed.__self__ is random._inst, watch in sys.meta_path)
"""
    assert watched(script, before) == "%s True False\n" % seeded


def test_a_copy_seeds_random_with_its_own_seed_not_one_the_import_put_in_its_place():
    script = """
import random
random.seed = lambda *a, **k: print("the import's seed ran")
watch.unwatch()
before = random.getstate()
watch.seed_as_fresh()
print(random.getstate() != before)
"""
    assert watched(script) == "True\n"


GENERATORS = """
import random

class Slotted(random.Random):
    __slots__ = ()

own, slotted, fixed, reseeded, restored = (
    random.Random(), Slotted(), random.Random(5), random.Random(), random.Random())
reseeded.seed(9)
restored.setstate(random.Random(4).getstate())
watch.unwatch()
states = [g.getstate() for g in (own, slotted, fixed, reseeded, restored)]
watch.seed_as_fresh()
print([g.getstate() != s for g, s in zip((own, slotted, fixed, reseeded, restored), states)],
      "seed" in vars(random.Random),
      random.Random.seed.__qualname__, random.Random.setstate.__qualname__)
"""


@pytest.mark.parametrize("before", ["", "import random"])
def test_a_copy_seeds_again_each_generator_the_import_seeded_from_entropy(before):
    """A `random.Random()` the import makes starts from the system's entropy in a fresh
    process, so each copy seeds it again; one seeded with a value, or given a state, keeps
    it. Once the import is over, the class's methods are its own again."""
    expected = "[True, True, False, False, False] True Random.seed Random.setstate\n"
    assert watched(GENERATORS, before) == expected


@pytest.mark.skipif(importlib.util.find_spec("lib2to3") is None, reason="this Python has no lib2to3 (3.13 and later)")
def test_the_runner_translates_a_python2_program_once_and_not_another(tmp_path, monkeypatch):
    import boardgrade_source

    monkeypatch.setattr(boardgrade_source, "_TRANSLATOR", [])
    monkeypatch.setattr(boardgrade_source, "_TRANSLATED", {})
    python3 = tmp_path / "game.py"
    python3.write_text("print('board')\n")
    runner._translate_once(str(python3))
    assert boardgrade_source._TRANSLATOR == [] and boardgrade_source._TRANSLATED == {}
    python2 = tmp_path / "old.py"
    python2.write_text("print 'board'\n")
    runner._translate_once(str(python2))
    [translator] = boardgrade_source._TRANSLATOR
    assert boardgrade_source._TRANSLATED == {"print 'board'\n": "print('board')\n"}
    # Each scenario's launcher finds the translation made, as the copies of the runner hold it.
    monkeypatch.setattr(boardgrade_source, "_translation", None)
    assert boardgrade_source.python2_translated(python2.read_text()) == "print('board')\n"
    assert boardgrade_source._TRANSLATOR == [translator]


@pytest.mark.skipif(importlib.util.find_spec("lib2to3") is None, reason="this Python has no lib2to3 (3.13 and later)")
def test_a_python2_program_divides_as_python2_did_on_the_lines_it_was_written_on():
    import boardgrade_source

    program = (
        "board = range(9)\n"
        "mid = len(board) / 2\n"
        "half = 7 / 2.0\n"
        "low = -7 / 2\n"
        "rows = 10\n"
        "if True:\n"
        "    # thirds\n"
        "    rows /= 3\n"
        "mixed = (3 * 4 /\n"
        "         5 / 2) % 9 + 9 // 2\n"
        "shown = '%d/%d' % (mid, rows)\n"
        "print board[mid], half, low, rows, mixed, shown\n"
        "raise ValueError, len(board) / 4\n"
    )
    translated = boardgrade_source.python2_translated(program)
    assert translated.count("\n") == program.count("\n")
    names = {}
    with pytest.raises(ValueError) as raised:
        exec(compile(translated, "old.py", "exec"), names)
    assert (names["mid"], names["half"], names["low"], names["rows"], names["mixed"]) == (4, 3.5, -4, 3, 5)
    assert names["shown"] == "4/3" and raised.value.args == (2,)
    assert raised.traceback[-1].lineno == 12  # the line of the raise, counted from 0


@pytest.mark.skipif(importlib.util.find_spec("lib2to3") is None, reason="this Python has no lib2to3 (3.13 and later)")
def test_a_python2_program_that_imports_true_division_keeps_it():
    import boardgrade_source

    translated = boardgrade_source.python2_translated("from __future__ import division\nprint 7 / 2\nx = 7 / 2\n")
    names = {}
    exec(compile(translated, "old.py", "exec"), names)
    assert names["x"] == 3.5
