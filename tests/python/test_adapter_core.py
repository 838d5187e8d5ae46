"""The shared core of the call-protocol adapters: framing, commands, and loading a student's
file without running its program."""

import ast
import io
import importlib.util
import os
import subprocess
import sys
import textwrap

import boardgrade_adapter as core
import boardgrade_source as source
import pytest



def respond(commands, line):
    out = io.StringIO()
    core.respond(commands, line, out)
    return out.getvalue()


# Framing


def test_a_return_value_is_one_equals_line_per_line_then_a_dot():
    assert core.frame(None, "a\nb") == "=a\n=b\n.\n"


def test_nothing_to_return_is_the_dot_alone():
    assert core.frame(None, core.NOTHING) == ".\n"


def test_an_error_is_one_line_however_many_its_message_has():
    assert core.frame("ValueError: one\ntwo", core.NOTHING) == "!error ValueError: one two\n.\n"


def test_findings_come_before_the_value():
    answer = core.Answer("[[0, 1]]", [("changed-input", "[[1, 0]]")])
    assert core.frame(None, answer) == "!changed-input [[1, 0]]\n=[[0, 1]]\n.\n"


def test_findings_are_kept_when_the_call_failed():
    answer = core.Answer("ignored", [("changed-input", "[]")])
    assert core.frame("KeyError: 'x'", answer) == "!changed-input []\n!error KeyError: 'x'\n.\n"


# One command


def test_printed_lines_come_first_as_colon_lines():
    def shout(word):
        print("I say")
        print(word, end="")
        return repr(len(word))

    assert respond({"shout": shout}, "shout hello\n") == ":I say\n:hello\n=5\n.\n"


def test_what_a_call_prints_past_its_room_is_counted_not_shown():
    def chatty():
        for _ in range(100):
            print("x" * 99)
        return "1"

    framed = respond({"chatty": chatty}, "chatty")
    shown = [line for line in framed.splitlines() if line.startswith(":x")]
    assert len(shown) == core.PRINTED_PER_CALL // 100 + 1
    # What was passed on, the last line cut where the room ended; the rest was held.
    held = 100 * 100 - len("\n".join(line[1:] for line in shown))
    assert framed.endswith(":[%d more characters printed by this call, not shown]\n=1\n.\n" % held)
    # The next call has its own room.
    assert respond({"say": lambda: print("hi")}, "say") == ":hi\n=None\n.\n"


def test_a_flood_is_passed_on_again_to_meet_the_output_limit(monkeypatch):
    monkeypatch.setattr(core, "FLOOD", 1000)

    def flood():
        for _ in range(200):
            print("y" * 99)

    framed = respond({"flood": flood}, "flood")
    shown = sum(len(line) + 1 for line in framed.splitlines() if line.startswith(":y"))
    assert core.PRINTED_PER_CALL < shown < core.PRINTED_PER_CALL + 200 * 100 - 1000 + 200


def test_a_call_that_raises_is_an_error_line_and_the_session_goes_on():
    commands = {"divide": lambda a, b: str(int(a) // int(b))}
    assert respond(commands, "divide 1 0") == "!error ZeroDivisionError: integer division or modulo by zero\n.\n"
    assert respond(commands, "divide 7 2") == "=3\n.\n"


def test_sys_exit_in_a_call_is_an_error_not_the_end():
    def leave():
        sys.exit(3)

    assert respond({"leave": leave}, "leave") == "!error SystemExit: 3\n.\n"


def test_an_unknown_command_and_a_wrong_arity_are_named():
    commands = {"one": lambda x: x}
    assert respond(commands, "two") == "!error UnknownCommand: 'two'\n.\n"
    assert respond(commands, "one a b") == "!error UsageError: one takes 1 argument(s)\n.\n"


def test_defaults_and_star_arguments_widen_the_arity_each_time_it_is_asked():
    commands = {"opt": lambda x="": "[%s]" % x, "many": lambda *a: str(len(a))}
    for _ in range(2):  # the second time from what was read the first
        assert respond(commands, "opt") == "=[]\n.\n"
        assert respond(commands, "opt a") == "=[a]\n.\n"
        assert respond(commands, "opt a b").startswith("!error UsageError: opt takes 1")
        assert respond(commands, "many a b c") == "=3\n.\n"


def test_an_empty_line_gets_an_empty_response():
    assert respond({}, "\n") == ".\n"
    assert respond({}, "   ") == ".\n"


def test_a_long_message_is_cut():
    def fail():
        raise ValueError("x" * 1000 + "\nsecond line")

    line = respond({"fail": fail}, "fail").split("\n")[0]
    assert line == "!error ValueError: " + "x" * 300 + "..."


def test_every_line_gets_one_response_in_order():
    out = io.StringIO()
    core.serve_lines(io.StringIO("echo a\n\necho b\nnope\n"), out, {"echo": lambda w: w})
    assert out.getvalue() == "=a\n.\n.\n=b\n.\n!error UnknownCommand: 'nope'\n.\n"


def test_a_missing_student_function_raises_name_error():
    module = type(sys)("student")
    module.present = lambda: 1
    assert core.call(module, "present") == 1
    with pytest.raises(NameError, match="name 'absent' is not defined"):
        core.call(module, "absent")


# Reading the file


def test_a_file_in_packages_is_named_from_above_the_topmost_one(tmp_path):
    logic = tmp_path / "team" / "pychess" / "logic"
    logic.mkdir(parents=True)
    for folder in (logic, logic.parent):
        (folder / "__init__.py").write_text("")
    entry = logic / "chess_logic.py"
    entry.write_text("")
    assert core.package_name(str(entry)) == (str(tmp_path / "team"), "pychess.logic.chess_logic")
    (logic.parent / "__init__.py").unlink()
    assert core.package_name(str(entry)) == (str(logic.parent), "logic.chess_logic")
    (logic / "__init__.py").unlink()
    assert core.package_name(str(entry)) is None


def test_a_folder_python_cannot_name_ends_the_package_chain(tmp_path):
    logic = tmp_path / "team-1" / "logic"
    logic.mkdir(parents=True)
    for folder in (logic, logic.parent):
        (folder / "__init__.py").write_text("")
    entry = logic / "chess_logic.py"
    entry.write_text("")
    assert core.package_name(str(entry)) == (str(logic.parent), "logic.chess_logic")


def test_source_is_read_in_the_encoding_it_declares(tmp_path):
    cookie = tmp_path / "latin.py"
    cookie.write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n")
    assert "name = '\u00e9'" in core.read_source(str(cookie))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfx = 1\n")
    assert core.read_source(str(bom)) == "x = 1\n"
    broken = tmp_path / "broken.py"
    broken.write_bytes(b"x = '\xff'\n")
    assert core.read_source(str(broken)) == "x = '\ufffd'\n"


@pytest.mark.parametrize("raw", [
    b"x = 1\n",
    b"# -*- coding: latin-1 -*-\nx = 1\n",
    b"#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-15 :\nx = 1\n",
    b"\n# coding=cp1252\n",
    b"x = 1\n# coding: latin-1\n",
    b"\xef\xbb\xbfx = 1\n",
    b"\xef\xbb\xbf# coding: utf-8\nx = 1\n",
    b"\xef\xbb\xbf# coding: utf-8-sig\n",
    b"# coding: UTF8\n",
    b"# encoding:utf_8\n",
    b"# coding: ; coding: latin-1\n",
    b"   \t# coding: latin-1\n",
    b"\r\n# coding: latin-1\n",
    b"",
    b"\xef\xbb\xbf# -*- coding: utf-8-with-signature -*-\n",
    b"# -*- coding: utf-8-unix -*-\n",
    b"# -*- coding: latin-1-unix -*-\nx = '\xe9'\n",
    b"# -*- coding: iso-latin-1 -*-\nx = '\xe9'\n",
    b"# -*- coding: ISO_8859_1 -*-\nx = '\xe9'\n",
    b"# coding: utf8\n",
])
def test_the_encoding_found_is_the_one_python_reads_the_file_in(raw):
    import tokenize

    expected, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    found = source.source_encoding(raw)
    assert raw.decode(found) == raw.decode(expected)
    assert (found == "utf-8-sig") == (expected == "utf-8-sig")


@pytest.mark.parametrize("raw, error", [
    (b"# coding: no-such-codec\n", LookupError),
    (b"\xef\xbb\xbf# coding: latin-1\n", SyntaxError),
    (b"\xef\xbb\xbf# coding: utf8\n", SyntaxError),
    (b"\xef\xbb\xbf# coding: u8\n", SyntaxError),
])
def test_a_cookie_python_refuses_is_refused(raw, error):
    import tokenize

    with pytest.raises(SyntaxError):
        tokenize.detect_encoding(io.BytesIO(raw).readline)
    with pytest.raises(error):
        source.source_encoding(raw)


def test_the_arity_read_from_code_is_what_the_signature_allows():
    import functools
    import inspect

    class Handlers:
        def method(self, a, b=1):
            pass

    def keyword_only(a, *, b):
        pass

    def keyword_default(a, *, b=2, **rest):
        pass

    many = float("inf")
    expected = [
        (lambda: 0, (0, 0)),
        (lambda a, b: 0, (2, 2)),
        (lambda a, b="": 0, (1, 2)),
        (lambda *a: 0, (0, many)),
        (lambda a, *b: 0, (1, many)),
        (Handlers().method, (1, 2)),
        (keyword_only, (many, 1)),  # a required keyword-only argument: never callable here
        (keyword_default, (1, 1)),
        (functools.partial(lambda a, b: 0, 1), (1, 1)),  # no code of its own: its signature
        (len, (1, 1)),
    ]
    for handler, arity in expected:
        assert core._positional_arity(handler) == arity, handler
        assert core._parameter_count(handler) == len(inspect.signature(handler).parameters), handler


def test_the_function_a_call_names_is_read_from_its_text():
    assert core._callee(" time.sleep (1)") == "time.sleep"
    assert core._callee("input()") == "input"
    assert core._callee("_private.x(") == "_private.x"
    assert core._callee("x[0](1)") is None
    assert core._callee("1x()") is None
    assert core._callee("(lambda: 0)()") is None


def test_a_line_is_found_as_the_compiler_numbers_it(tmp_path):
    path = tmp_path / "paged.py"
    path.write_bytes(b"# page one\x0c still line one\r\nx = 1\ry = 2\nimport time; time.sleep(9)\n")
    assert core._source_line(str(path), 4) == "import time; time.sleep(9)"
    assert core._source_line(str(path), 1) == "# page one\x0c still line one"
    assert core._source_line(str(path), 9) == ""


def test_a_cookie_that_names_no_codec_leaves_a_bom_out_of_the_text():
    assert source.decoded(b"\xef\xbb\xbf# coding: nonsense\nx = 1\n") == "# coding: nonsense\nx = 1\n"


def test_a_report_of_the_import_limit_is_json():
    import json

    place = {"file": "d\u00e9j\u00e0 \"vu\".py", "line": 7, "message": "a\nb\\"}
    assert json.loads(core.json_text(place, ascii=True)) == place


def test_frames_are_listed_as_the_traceback_module_lists_them():
    import traceback

    def inner():
        raise ValueError("x")

    try:
        inner()
    except ValueError as error:
        listed = traceback.extract_tb(error.__traceback__)
        found = core.frames_of(error.__traceback__)
    assert [(f.filename, f.lineno, f.name) for f in found] == [(f.filename, f.lineno, f.name) for f in listed]


def test_the_tree_walked_is_the_whole_tree():
    tree = ast.parse("def f(x):\n    return [y for y in x if y]\nclass C:\n    a = f(1)\n")
    assert sorted(map(ast.dump, source.walk(tree))) == sorted(map(ast.dump, ast.walk(tree)))


# What runs at load


def kept(source):
    tree = ast.parse(textwrap.dedent(source))
    imported = core._imported_names(tree)
    definitions = core._definitions(tree)
    return [core._keep_at_load(stmt, imported, definitions) for stmt in tree.body]


def test_definitions_and_set_up_run_at_load():
    assert kept("""
        import random, sys
        from os import path as p
        def f(): pass
        class C: pass
        X = 1
        X += 1
        Y: int = 2
        sys.setrecursionlimit(10000)
        random.seed(1)
        MOVES = []
        MOVES.append(3)
        for i in range(3):
            MOVES.append(i)
        try:
            import numpy
        except ImportError:
            numpy = None
        if X > 1:
            Z = 3
    """) == [True] * 14


def test_a_python_2_shim_that_tests_a_name_runs_at_load():
    assert kept("""
        ""\"A docstring.""\"
        try:
            xrange
        except NameError:
            xrange = range
        try:
            unicode = unicode
        except NameError:
            unicode = str
        try:
            sys.maxint
        except AttributeError:
            pass
        ...
    """) == [True] * 5


def test_a_shim_defines_the_name_the_functions_use(tmp_path, monkeypatch):
    module = load(tmp_path, monkeypatch, """
        from __future__ import print_function, division
        try:
            xrange
        except NameError:
            xrange = range
        def cells(size):
            return list(xrange(size))
    """, "py2_shim_student")
    assert module.cells(3) == [0, 1, 2]


def test_programs_do_not_run_at_load():
    assert kept("""
        main()
        print("hello")
        while True:
            pass
        if __name__ == "__main__":
            main()
        if "__main__" == __name__:
            main()
        if __name__ in ("__main__",):
            main()
        if X:
            main()
        for i in range(3):
            print(i)
        helper.do()
    """) == [False] * 9


def test_a_bare_call_of_a_set_up_function_of_the_file_runs_at_load():
    assert kept("""
        game_board = {}
        def fill(board, color):
            for col in "AB":
                board[col + "1"] = color
        def init_board():
            fill(game_board, "w")
            print("board ready")
        init_board()
        fill(game_board, "w")
        if not game_board:
            init_board()
        for color in "wb":
            fill(game_board, color)
    """) == [True] * 7


def test_a_bare_call_of_a_function_that_reads_input_is_a_program():
    assert kept("""
        import os
        import sys
        from sys import stdin
        def ask():
            return input("w move: ")
        def turn():
            square = ask()
            return square
        def read_line():
            return sys.stdin.readline()
        def read_name():
            return stdin.readline()
        def read_all():
            return open(0).read()
        def read_bytes():
            return os.read(0, 100)
        class Game:
            def play(self):
                return turn()
        def start():
            Game().play()
        def setup(board):
            board.append(1)
        ask()
        turn()
        read_line()
        read_name()
        read_all()
        read_bytes()
        start()
        setup(input())
        setup([])
    """)[-9:] == [False] * 8 + [True]


def test_a_bare_call_of_a_function_that_loops_or_exits_is_a_program():
    assert kept("""
        import sys
        def play():
            while True:
                pass
        def main():
            init()
            play()
        def init():
            pass
        def leave():
            sys.exit(0)
        def stop():
            exit()
        def done():
            quit()
        play()
        main()
        leave()
        stop()
        done()
        if __name__ == "__main__":
            init()
        init()
    """)[-7:] == [False] * 6 + [True]


def load(tmp_path, monkeypatch, source, name):
    """Loads a student file as the adapter does, the protocol's stdout held in memory."""
    monkeypatch.setattr(core, "_protocol_out", io.StringIO())
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    path = tmp_path / (name + ".py")
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    try:
        return core.load_submission(str(path))
    finally:
        sys.modules.pop(name, None)


def test_a_loaded_file_has_its_definitions_but_its_program_never_ran(tmp_path, monkeypatch, capsys):
    module = load(tmp_path, monkeypatch, """
        RAN = []
        def main():
            RAN.append("main")
            input("w move: ")
        def double(x):
            return 2 * x
        main()
        if __name__ == "__main__":
            main()
        while True:
            main()
    """, "guarded_student")
    assert module.double(4) == 8
    assert module.RAN == []
    assert module.__file__ == str(tmp_path / "guarded_student.py")


def test_a_failing_definition_is_reported_and_loading_goes_on(tmp_path, monkeypatch, capsys):
    module = load(tmp_path, monkeypatch, """
        name = input("Your name? ")
        WIDTH = 1 / 0
        def after():
            return "still here"
    """, "failing_student")
    assert module.after() == "still here"
    err = capsys.readouterr().err
    assert "boardgrade: at load, line 2: EOFError" in err
    assert "this `input()` outside a function got no line, and the statement was skipped" in err
    assert "boardgrade: at load, line 3: ZeroDivisionError: division by zero" in err


def test_a_board_filled_by_a_function_called_at_the_top_level_is_there_after_load(tmp_path, monkeypatch):
    module = load(tmp_path, monkeypatch, """
        game_board = {}
        def init_board():
            for col in "ABCDEFGH":
                for row in "12345678":
                    game_board[col + row] = {"1": "w", "8": "b"}.get(row, "")
        init_board()
        def moves_remaining(color):
            return sum(1 for piece in game_board.values() if piece == color)
    """, "init_board_student")
    assert module.moves_remaining("w") == 8
    assert module.game_board["A8"] == "b"


def test_a_main_that_builds_the_board_then_plays_never_starts(tmp_path, monkeypatch):
    module = load(tmp_path, monkeypatch, """
        game_board = {}
        def main():
            global game_board
            game_board = {"A1": "w"}
            while True:
                square = input("w move: ")
        main()
    """, "main_student")
    assert module.game_board == {}


def test_a_failing_set_up_call_is_reported_and_loading_goes_on(tmp_path, monkeypatch, capsys):
    module = load(tmp_path, monkeypatch, """
        CHECKED = []
        def test():
            CHECKED.append("ran")
            assert 1 + 1 == 3, "arithmetic"
        test()
        def after():
            return "still here"
    """, "testing_student")
    assert module.CHECKED == ["ran"]
    assert module.after() == "still here"
    assert "boardgrade: at load, line 6: AssertionError: arithmetic" in capsys.readouterr().err


def test_a_syntax_error_stops_the_load_with_its_line(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit) as stopped:
        load(tmp_path, monkeypatch, "def f():\n    return 1\nprint('not closed'\n", "broken_student")
    assert stopped.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("boardgrade: cannot load broken_student.py: SyntaxError:")
    assert "(line 3)" in err


HAS_2TO3 = importlib.util.find_spec("lib2to3") is not None
PYTHON2 = ("def greet(name):\n"
           "    print 'hello,', name\n"
           "    return name.upper()\n"
           "def count(n):\n"
           "    try:\n"
           "        return len(xrange(n))\n"
           "    except TypeError, error:\n"
           "        return -1\n")


@pytest.mark.skipif(not HAS_2TO3, reason="this Python has no lib2to3 (3.13 and later)")
def test_a_python2_file_loads_as_its_2to3_translation(tmp_path, monkeypatch):
    module = load(tmp_path, monkeypatch, PYTHON2, "python2_student")
    assert module.count(4) == 4
    assert module.greet("ann") == "ANN"


@pytest.mark.skipif(not HAS_2TO3, reason="this Python has no lib2to3 (3.13 and later)")
def test_a_python2_file_s_own_modules_import_translated(tmp_path, monkeypatch):
    (tmp_path / "helpers.py").write_text("def shout(text):\n    print text.upper()\n    return len(text)\n")
    monkeypatch.setattr(sys, "path_importer_cache", dict(sys.path_importer_cache))
    monkeypatch.delitem(sys.modules, "helpers", raising=False)
    module = load(tmp_path, monkeypatch, "import helpers\n" + PYTHON2, "python2_student")
    assert module.helpers.shout("ab") == 2
    assert module.count(2) == 2


@pytest.mark.skipif(HAS_2TO3, reason="this Python has lib2to3")
def test_a_python2_file_does_not_load_where_there_is_no_2to3(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit):
        load(tmp_path, monkeypatch, PYTHON2, "python2_student")
    assert "(line 2)" in capsys.readouterr().err


def test_a_limit_in_the_environment_is_positive_seconds(monkeypatch):
    monkeypatch.setenv("BOARDGRADE_TEST_LIMIT", "2.5")
    assert core._seconds_from("BOARDGRADE_TEST_LIMIT") == 2.5
    for bad in ("", "0", "-1", "soon"):
        monkeypatch.setenv("BOARDGRADE_TEST_LIMIT", bad)
        assert core._seconds_from("BOARDGRADE_TEST_LIMIT") is None


# Whole sessions, as boardgrade starts them


def write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def serving(functions):
    """An adapter serving the named functions of the submission, as the game adapters do."""
    return textwrap.dedent("""
        import sys
        from boardgrade_adapter import call, load_submission, serve
        student = load_submission(sys.argv[1])
        def command(name):
            return lambda *words: repr(call(student, name, *words))
        serve({name: command(name) for name in %r})
    """ % (functions,))


def test_a_session_keeps_student_output_out_of_the_protocol(tmp_path, serve_adapter):
    entry = write(tmp_path, "student.py", """
        import os
        print("printed at import")
        def echo(word):
            os.write(1, b"straight to fd 1\\n")
            print("printed in the call")
            return word
        def read():
            return input()
    """)
    served = serve_adapter(serving(["echo", "read"]), entry, ["echo hi", "read", "echo bye"])
    assert served.status == 0, served.stderr
    assert served.responses == [
        [":printed in the call", "='hi'", "."],
        ["!error EOFError: EOF when reading a line", "."],
        [":printed in the call", "='bye'", "."],
    ]
    assert served.unframed == []
    assert "straight to fd 1" in served.stderr


def test_a_call_over_its_limit_ends_the_session_naming_it(tmp_path, serve_adapter):
    entry = write(tmp_path, "student.py", """
        import time
        def slow():
            time.sleep(30)
    """)
    served = serve_adapter(serving(["slow"]), entry, ["slow"], env={"BOARDGRADE_CALL_LIMIT": "0.2"})
    assert served.status == 124
    assert served.stderr.rstrip().split("\n")[-1] == "boardgrade: call limit: slow did not return within 0.2 s"


def test_a_call_limit_holds_after_student_code_replaced_the_alarm_handler(tmp_path, serve_adapter):
    entry = write(tmp_path, "student.py", """
        import signal
        import time
        def quiet():
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
        def slow():
            time.sleep(30)
    """)
    served = serve_adapter(serving(["quiet", "slow"]), entry, ["quiet", "slow"],
                           env={"BOARDGRADE_CALL_LIMIT": "0.2"})
    assert served.status == 124
    assert served.stderr.rstrip().split("\n")[-1] == "boardgrade: call limit: slow did not return within 0.2 s"


def test_a_call_limit_holds_after_the_import_replaced_the_signal_modules(tmp_path, serve_adapter):
    entry = write(tmp_path, "student.py", """
        import sys
        import time
        import types
        fake = types.ModuleType("_signal")
        fake.SIGALRM, fake.ITIMER_REAL = 14, 0
        fake.signal = lambda *args: None
        fake.setitimer = lambda *args: 0.0
        sys.modules["_signal"] = sys.modules["signal"] = fake
        def slow():
            time.sleep(30)
    """)
    served = serve_adapter(serving(["slow"]), entry, ["slow"],
                           env={"BOARDGRADE_CALL_LIMIT": "0.2", "BOARDGRADE_IMPORT_LIMIT": "20"})
    assert served.status == 124
    assert served.stderr.rstrip().split("\n")[-1] == "boardgrade: call limit: slow did not return within 0.2 s"


def test_an_import_over_its_limit_says_where_it_was(tmp_path, serve_adapter):
    entry = write(tmp_path, "student.py", """
        import time
        X = time.sleep(30)
    """)
    served = serve_adapter(serving([]), entry, [], env={"BOARDGRADE_IMPORT_LIMIT": "0.2"})
    assert served.status == 124
    last = served.stderr.rstrip().split("\n")[-1]
    assert last.startswith('boardgrade: import limit: {"file": "student.py", "line": 3')
    assert "the import did not finish in 0.2 s" in last
    if sys.version_info >= (3, 11):
        assert "it was in `time.sleep`" in last


KEPT = """
import os, sys
sys.path.insert(0, sys.argv[1])
import boardgrade_adapter as core
with core.standard_fds_kept():
    seen = os.read(0, 100)
    os.closerange(0, 3)
os.write(1, b"out " + seen + b"\\n")
os.write(2, b"err\\n")
print(sys.stdin.readline().strip())
"""


def test_an_import_that_reads_or_closes_the_standard_descriptors_changes_nothing_after_it():
    """Inside, descriptor 0 is an empty input; after, 0 to 2 are what they were, whatever
    the import did to them (as the loaded runner puts back its own)."""
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", KEPT, os.path.dirname(core.__file__)],
        input="the protocol's first line\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        universal_newlines=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "out \nthe protocol's first line\n"
    assert done.stderr == "err\n"
