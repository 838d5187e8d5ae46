"""The scripts that read a submission's code without running it: the definition probe
(`grade` routes a file by what it defines) and the code checks (`code.toml` rules)."""

import ast
import base64
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap

import boardgrade_source
import pytest

from conftest import lay_out, load_script, source_of

probe = load_script("grade/probe.py", "boardgrade_probe")
checks = load_script("harness/code/checks.py", "boardgrade_checks")


def tree(source):
    return boardgrade_source.parse(textwrap.dedent(source), "<test>")


# The probe


def test_definitions_include_fallbacks_guards_and_names_taken_from_helpers():
    body = tree("""
        from helpers import is_valid_move, create_board as make
        from star import *
        def main(): pass
        class Game: pass
        try:
            def winner(): pass
        except ImportError:
            def fallback(): pass
        if __name__ == "__main__":
            def guarded(): pass
        x = 1
    """).body
    assert probe.definitions(body) == ["is_valid_move", "make", "main", "Game", "winner", "fallback",
                                       "guarded"]


def test_variables_are_the_names_top_level_assignments_bind_each_once():
    body = tree("""
        game_board = {}
        rows, (cols, *rest) = "12", "AB"
        size: int = 8
        hint: str
        game_board["A1"] = "w"
        total += 1
        if __name__ == "__main__":
            player = "w"
        def display_board():
            local = 1
        game_board = dict()
    """).body
    assert probe.variables(body) == ["game_board", "rows", "cols", "rest", "size", "player"]
    assert "game_board" not in probe.definitions(body)


def test_star_imports_are_the_modules_every_name_is_taken_from():
    body = tree("""
        from helpers import *
        from .board import *
        from rules import is_valid_move
        try:
            from py3_version import *
        except ImportError:
            from py2_version import *
        def f():
            from inside import *
    """).body
    # A relative one fails in a file loaded as a top-level module: not counted.
    assert probe.star_imports(body) == ["helpers", "py3_version", "py2_version"]


def test_taken_names_are_those_bound_only_by_a_from_import():
    body = tree("""
        from logic.game_logic import ChessLogic
        from .moves import targets as moves_of
        from helpers import move_knight, draw
        from old import *
        def draw():
            pass
    """).body
    # `draw` is defined here too, so it is the file's own.
    assert probe.taken(body) == [["ChessLogic", "logic.game_logic"], ["moves_of", ".moves"],
                                 ["move_knight", "helpers"]]


def test_exported_names_are_a_literal_all_or_none():
    assert probe.exported(tree("__all__ = ['move', 'board']\ndef move(): pass").body) == ["move", "board"]
    assert probe.exported(tree("__all__ = ('move',)").body) == ["move"]
    assert probe.exported(tree("__all__ = [name for name in dir()]").body) is None
    assert probe.exported(tree("def move(): pass").body) is None


def test_reading_standard_input_is_seen_anywhere_in_the_code():
    for source in [
        "def main():\n    position = int(input())",
        "try:\n    ask = raw_input\nexcept NameError:\n    ask = input",
        "import sys\nclass Game:\n    def turn(self):\n        return sys.stdin.readline()",
        "import fileinput\nfor line in fileinput.input():\n    pass",
        "def lines():\n    return open(0).read().split()",
        "def later():\n    return [input() for _ in range(3)]",
    ]:
        assert probe.reads_stdin(tree(source)), source
    for source in [
        "def main():\n    board = create_board()\n    print(printable_board(board))",
        "def inputs(board):\n    return 'input'",
        "def read(path):\n    return open(path).read()",
        "def zero():\n    return open('0')",
    ]:
        assert not probe.reads_stdin(tree(source)), source


def test_only_unconditional_top_level_imports_count():
    found = probe.imports(tree("""
        import os.path, numpy as np
        from pygame.locals import QUIT
        from . import sibling
        try:
            import maybe
        except ImportError:
            pass
        def f():
            import inside
    """))
    assert found == [(2, "os"), (2, "numpy"), (3, "pygame")]


def test_a_missing_import_is_the_first_no_finder_locates():
    body = tree("""
        import sys
        import helpers
        import surely_not_installed_boardgrade
        import another_missing_one
    """)
    assert probe.missing_import(body, {"helpers"}) == (4, "surely_not_installed_boardgrade")


def test_own_modules_are_every_python_file_and_folder_of_the_submission(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "board.py").write_text("")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "hook.py").write_text("")
    (tmp_path / "main.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    assert probe.own_modules(str(tmp_path)) == {"pkg", "board", "main"}
    assert probe.own_modules(str(tmp_path / "main.py")) == {"main"}


def run_probe(files, provided=()):
    request = "".join(["%s\n" % " ".join(provided)] + [
        "%s %s\n" % (base64.b64encode(os.fsencode(p)).decode(), base64.b64encode(os.fsencode(r)).decode())
        for p, r in files])
    with tempfile.TemporaryDirectory() as folder:
        script = lay_out(folder, "grade/probe.py", "execution/python/boardgrade_source.py")
        completed = subprocess.run([sys.executable, "-B", script],
                                   input=request, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    return [json.loads(line) for line in completed.stdout.splitlines()]


def test_the_probe_answers_one_line_per_file_in_order(tmp_path):
    good = tmp_path / "good.py"
    good.write_text("import helper\nfrom helper import *\ndef move(): pass\nboard = {}\n")
    (tmp_path / "helper.py").write_text("")
    python2 = tmp_path / "old.py"
    python2.write_text("def f():\n    print 'hello'\n")
    missing = tmp_path / "needs.py"
    missing.write_text("import pygame_not_here\ndef g(): pass\n")
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\ndef caf\xe9(): pass\n")
    root = str(tmp_path)
    answers = run_probe([(str(good), root), (str(python2), root), (str(missing), root), (str(latin), root)])
    assert answers[0] == {"names": ["move"], "variables": ["board"], "error": None, "imports": ["helper"],
                          "star": ["helper"], "all": None, "taken": [], "stdin": False, "python2": None}
    if importlib.util.find_spec("lib2to3") is not None:
        # Read as its 2to3 translation, which the adapters and the launcher run.
        assert (answers[1]["names"], answers[1]["error"]) == (["f"], None)
        # The error Python 3 gives on it is kept, for a handout that asks for Python 3.
        assert answers[1]["python2"]["line"] == 2
        assert answers[1]["python2"]["message"].startswith("SyntaxError: Missing parentheses")
    else:
        assert answers[1]["names"] == []
        assert answers[1]["error"]["line"] == 2
        assert answers[1]["error"]["message"].startswith("SyntaxError: ")
    assert answers[2] == {"names": ["g"], "variables": [],
                          "error": {"line": 1, "message": "ModuleNotFoundError: No module named 'pygame_not_here'"},
                          "imports": ["pygame_not_here"], "star": [], "all": None, "taken": [], "stdin": False,
                          "python2": None}
    assert answers[3] == {"names": ["caf\u00e9"], "variables": [], "error": None, "imports": [], "star": [],
                          "all": None, "taken": [], "stdin": False, "python2": None}
    # Neither Python 3 nor Python 2: its own error stands.
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n    pass\n")
    [answer] = run_probe([(str(broken), root)])
    assert (answer["error"]["line"], answer["python2"]) == (1, None)


def test_the_probe_starts_without_importing_json_or_re(tmp_path):
    """Its start is on every run's way: it writes JSON with the C encoder alone."""
    entry = tmp_path / "game.py"
    entry.write_text("def move(): pass\n")
    request = "\n%s %s\n" % (base64.b64encode(os.fsencode(str(entry))).decode(),
                              base64.b64encode(os.fsencode(str(tmp_path))).decode())
    with tempfile.TemporaryDirectory() as folder:
        script = lay_out(folder, "grade/probe.py", "execution/python/boardgrade_source.py")
        completed = subprocess.run([sys.executable, "-E", "-s", "-S", "-B", "-X", "importtime", script],
                                   input=request, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["names"] == ["move"]
    imported = {line.split("|")[-1].strip() for line in completed.stderr.splitlines()
                if line.startswith("import time:")}
    assert "boardgrade_source" in imported
    assert not imported & {"json", "re", "enum", "ast", "tokenize"}, sorted(imported)


def test_json_text_writes_what_json_reads():
    source = load_script("execution/python/boardgrade_source.py", "boardgrade_source_for_json")
    value = {"names": ["caf\u00e9", "a\"b\\c\n"], "error": None, "ok": True, "no": False,
             "line": 12, "taken": [["x", ".mod"]], "nested": {"empty": [], "tuple": (1, "t")}}
    assert json.loads(source.json_text(value)) == json.loads(json.dumps(value))
    assert "\n" not in source.json_text(value)
    with pytest.raises(TypeError):
        source.json_text({"set": {1}})


def test_json_value_reads_what_json_reads_and_refuses_what_it_refuses():
    source = load_script("execution/python/boardgrade_source.py", "boardgrade_source_for_json")
    for text in ['{"rules": [{"rule": "naming", "max": 80, "on": true, "off": false}], "n": null}',
                 ' ["caf\\u00e9", "\\ud83d\\ude00", -2.5e3, {"": []}] ', '"a\\"b\\\\c\\n"', "0"]:
        assert source.json_value(text) == json.loads(text), text
    for text in ["", "  ", "[1] [2]", "{", "nope", '"unclosed', '["\t"]']:
        with pytest.raises(ValueError):
            source.json_value(text)


def test_a_module_the_course_provides_is_not_missing(tmp_path):
    entry = tmp_path / "game.py"
    entry.write_text("import graphics\n")
    assert run_probe([(str(entry), str(tmp_path))], provided=["graphics"])[0]["error"] is None


# The code checks


def sent(source):
    """A file's source as the grader sends it: its bytes (UTF-8 for text), each as the
    character of its value."""
    raw = source if isinstance(source, bytes) else source.encode("utf-8")
    return raw.decode("latin-1")


def findings(rule, source, name="student.py", entry=True):
    if not isinstance(source, bytes):
        source = textwrap.dedent(source)
    return checks.check(rule, [{"name": name, "source": sent(source), "entry": entry}])


def test_no_global_names_each_global_statement():
    assert findings({"rule": "no_global"}, """
        count = 0
        def bump():
            global count
            count += 1
    """) == [{"file": "student.py", "line": 4, "message": "`global` statement: `global count`"}]


def test_line_length_counts_tabs_as_four():
    source = "def f():\n\treturn '%s'\n" % ("x" * 70)
    assert findings({"rule": "line_length", "max": 83}, source) == []
    assert findings({"rule": "line_length", "max": 82}, source) == [
        {"file": "student.py", "line": 2, "message": "line is 83 characters long (at most 82)"},
    ]


def test_naming_reports_each_name_once():
    found = findings({"rule": "naming"}, """
        class board_state:
            pass
        def isValid(Position):
            Temp = Position
            Temp = Temp + 1
            return Temp
        MAX_SIZE = 9
    """)
    assert [f["message"] for f in found] == [
        "class name `board_state` is not CapWords",
        "function name `isValid` is not snake_case",
        "parameter name `Position` is not snake_case",
        "variable name `Temp` is not snake_case",
    ]


def test_naming_reports_a_name_at_the_first_line_it_is_given_on():
    # The first `Total` is nested deeper than the second: a walk of the tree by depth would
    # meet the second first.
    found = findings({"rule": "naming"}, """
        def score(board):
            if board:
                Total = 1
            Total = 0
            return Total
    """)
    assert [(f["line"], f["message"]) for f in found] == [
        (4, "variable name `Total` is not snake_case"),
    ]


def test_outside_functions_allows_what_the_rule_names():
    source = """
        import sys
        LIMIT = 3
        board = make()
        def main():
            pass
        if __name__ == "__main__":
            main()
        main()
    """
    found = findings({"rule": "outside_functions", "allow": ["imports", "constants", "main_guard"]}, source)
    assert [(f["line"], f["message"]) for f in found] == [
        (4, "code outside functions: `board = make()`"),
        (9, "code outside functions: `main()`"),
    ]


def test_outside_functions_takes_aliases_and_shims_as_constants():
    source = """
        try:
            xrange
        except NameError:
            xrange = range
        class MiniChess:
            def move_maker(board, color):
                return []
        move_maker = MiniChess.move_maker
        turns_played = 0
    """
    found = findings({"rule": "outside_functions", "allow": ["imports", "constants"]}, source)
    assert [(f["line"], f["message"]) for f in found] == [
        (10, "code outside functions: `turns_played = 0`"),
    ]


VALUES = {"rule": "outside_functions", "allow": ["imports", "constants", "values", "docstrings"]}


def test_outside_functions_with_values_takes_the_tables_functions_keep_in_any_case():
    # A cache, a table of directions, a counter: values the functions keep at the top level,
    # neither test data nor a game, whatever the case of their names.
    source = """
        from collections import defaultdict
        memo = {}
        MEMO = {}
        cache = dict()
        seen: set = set()
        counts = defaultdict(int)
        visited, order = set(), []
        directions = {1: 1, 2: -1}
        calls = 0
        try:
            xrange
        except NameError:
            xrange = range
        def move_chooser(mlist, color):
            global calls
            calls += 1
            key = str(mlist)
            if key not in memo:
                memo[key] = max(mlist, key=lambda b: directions[color])
            return memo[key]
    """
    assert findings(VALUES, source) == []
    # Without `values`, lower-case names are no constants.
    assert [f["line"] for f in findings({"rule": "outside_functions", "allow": ["imports", "constants"]},
                                        source)] == [3, 5, 6, 7, 8, 9, 10]


def test_outside_functions_with_values_still_finds_test_data_and_calls():
    source = """
        def move_maker(board, color):
            return [board]
        board = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]
        color = 2
        moves = move_maker(board, color)
        print(move_maker(board, color))
        memo = {}
        memo.clear()
        size = int(input("size? "))
        while True:
            break
        if __name__ == "__main__":
            print(moves)
    """
    assert [(f["line"], f["message"]) for f in findings(VALUES, source)] == [
        # `board` is move_maker's parameter there, not this value.
        (4, "code outside functions: `board = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]` (a value that no function "
            "reads, such as test data)"),
        (5, "code outside functions: `color = 2` (a value that no function reads, such as test data)"),
        (6, "code outside functions: `moves = move_maker(board, color)`"),
        (7, "code outside functions: `print(move_maker(board, color))`"),
        (9, "code outside functions: `memo.clear()`"),
        (10, "code outside functions: `size = int(input(\"size? \"))`"),
        (11, "code outside functions: `while True:`"),
        (13, "code outside functions: `if __name__ == \"__main__\":`"),
    ]


def test_an_alias_or_a_lambda_defines_its_name():
    body = tree("""
        class MiniChess:
            pass
        move_maker = MiniChess.move_maker
        move_chooser = lambda moves, color: moves[0]
        size = 3
    """).body
    assert probe.definitions(body) == ["MiniChess", "move_maker", "move_chooser"]


def test_a_file_that_does_not_parse_or_defines_nothing_is_one_finding():
    # The parser's own message, which differs between Python versions.
    [broken] = findings({"rule": "no_global"}, "def f(:\n")
    assert (broken["file"], broken["line"]) == ("student.py", 1)
    assert broken["message"].startswith("the file does not parse: ")
    assert findings({"rule": "no_global"}, "x = 1\n") == [
        {"file": "student.py", "line": 1, "message": "the file defines no function: no code to check"},
    ]


def test_forbidden_imports_reads_every_file_others_only_the_entry():
    files = [
        {"name": "main.py", "source": sent("def f():\n    pass\n"), "entry": True},
        {"name": "helper.py", "source": sent("import numpy\nglobal x\n"), "entry": False},
    ]
    assert checks.check({"rule": "no_global"}, files) == []
    found = checks.check({"rule": "forbidden_imports", "modules": ["numpy"]}, files)
    assert [(f["file"], f["line"]) for f in found] == [("helper.py", 1)]


# Code hidden in comments by a codec: each `\n` below is a backslash and an `n`, which the
# `unicode_escape` codec Python decodes the file with turns into a new line.
HIDDEN = (b"# -*- coding: unicode_escape -*-\n"
          b"#\\nglobal board\\ndef badName():\\n    pass\n"
          b"def f():\n    pass\n")


def test_the_checks_judge_the_text_python_runs_whatever_its_coding(tmp_path):
    script = tmp_path / "hidden.py"
    script.write_bytes(HIDDEN + b"print(badName.__name__)\n")
    ran = subprocess.run([sys.executable, "-I", "-B", str(script)], stdout=subprocess.PIPE,
                         universal_newlines=True, timeout=60)
    assert ran.stdout == "badName\n"
    assert findings({"rule": "no_global"}, HIDDEN) == [
        {"file": "student.py", "line": 3, "message": "`global` statement: `global board`"},
    ]
    assert [f["message"] for f in findings({"rule": "naming"}, HIDDEN)] == [
        "function name `badName` is not snake_case",
    ]
    # A byte order mark, Windows line ends, and a latin-1 file's own cookie.
    assert findings({"rule": "no_global"}, b"\xef\xbb\xbfdef f():\r\n    global g\r\n") == [
        {"file": "student.py", "line": 2, "message": "`global` statement: `global g`"},
    ]
    latin = b"# -*- coding: latin-1 -*-\n# Name: Jos\xe9 Garc\xeda, 3/8/2016, prog.py\ndef f():\n    pass\n"
    assert findings({"rule": "header_comment", "require": ["file_name", "name", "date"]}, latin) == []
    assert findings({"rule": "line_length", "max": 52}, latin) == []


def test_a_file_that_does_not_decode_is_one_finding():
    for source, why in [
        (b"# coding: no-such-codec\ndef f():\n    pass\n", "unknown encoding: no-such-codec"),
        (b"def f():\n    return '\xff'\n", ""),
        (b"# coding: rot13\ndef f():\n    pass\n", ""),
        (b"# coding: unicode_escape\ndef f():\n    return '\\x'\n", ""),
    ]:
        [found] = findings({"rule": "no_global"}, source)
        assert (found["file"], found["line"]) == ("student.py", 1), source
        assert found["message"].startswith("the file does not read: " + why), (source, found)


def test_a_file_not_read_is_a_finding_of_every_rule_that_reads_it():
    big = {"name": "main.py", "source": "", "entry": True,
           "unread": "larger than 2 MiB: the checks read whole files only"}
    for rule in ["no_global", "naming", "forbidden_imports"]:
        assert checks.check({"rule": rule}, [big]) == [
            {"file": "main.py", "line": 1,
             "message": "not read: larger than 2 MiB: the checks read whole files only"},
        ]
    files = [
        {"name": "main.py", "source": sent("def f():\n    pass\n"), "entry": True},
        {"name": "(3 more .py files)", "source": "", "entry": False,
         "unread": "past the first 500 .py files, which are all the checks read"},
    ]
    assert checks.check({"rule": "no_global"}, files) == []
    assert checks.check({"rule": "forbidden_imports", "modules": ["numpy"]}, files) == [
        {"file": "(3 more .py files)", "line": 1,
         "message": "not read: past the first 500 .py files, which are all the checks read"},
    ]


NAME_AND_DATE = {"rule": "header_comment", "require": ["name", "date"]}


def test_a_header_names_its_author_in_any_script():
    for line in ["José García", "Author: 李明", "Name: 李明", "prog67.py by Ángel Pérez",
                 "by 李明", "Ольга Петрова", "Seán O’Brien", "Ann Lee", "Name: A. Student",
                 "Author - ann lee"]:
        assert checks.gives_name(line), line
    for line in ["", "Name:", "Name: 42", "作业 三", "written in Python", "game rules by hand"]:
        assert not checks.gives_name(line), line


def test_a_header_names_its_author_in_any_case():
    # The handout asks for "your name": students write it in lower case too, alone, after
    # `by` or after a label, and the words a description is made of are no name.
    for line in ["ann lee", "José garcía", "JANE DOE", "prog67.py by jane doe, 3/8/2016", "By: jane",
                 "written by jane doe", "Student name: Nguyen Van An", "nguyen van an", "Summer Lee",
                 "Author Ann Lee"]:
        assert checks.gives_name(line), line
    for line in ["move generator", "alpha beta search", "moves generated by the reference", "by hand",
                 "Move Generator", "Project 1g: Pown Chess", "names the classes it found.", "reads anything.",
                 "sorted by row and column", "port PORT (the test writes the port in place of 0)"]:
        assert not checks.gives_name(line), line


def test_a_name_may_have_an_id_an_email_or_a_course_around_it():
    for line in ["Jane Doe (SID 912345678), ECS 10 Winter 2016", "Jane Doe (912345678)", "Jane Doe [912345678]",
                 "Jane Doe, 912345678", "jane doe (912345678)", "jane doe <jdoe@ucdavis.edu>",
                 "Jane Doe SID: 912345678", "jane doe, section A03", "Jane Doe - ECS 10", "Doe, Jane",
                 "Name: jane doe (912345678)", "jane doe (jdoe)", "jane doe ecs 10 winter 2016",
                 "prog67.py  Jane Doe  2016/03/08", "prog67.py  Name: Jane Doe"]:
        assert checks.gives_name(line), line
    # An ID, an email, a course or a term alone is no name.
    for line in ["Student ID: 912345678", "SID 912345678", "(SID 912345678)", "Name: (SID 912345678)",
                 "jdoe@ucdavis.edu", "ECS 10 Winter 2016", "ECS 10, Program 6, Winter 2016"]:
        assert not checks.gives_name(line), line


def test_a_one_line_header_gives_a_name_between_its_file_name_and_date():
    for line in ["prog67.py - Jane Doe - 3/8/2016", "prog67.py -- Jane Doe -- Mar 8 2016",
                 "prog67.py | José García | March 8, 2016", "Jane Doe, prog67.py, 2016-03-08",
                 "prog67.py \u2014 Ann Lee-Smith \u2014 8 March", "prog67.py, jane doe"]:
        assert checks.gives_name(line), line
    for line in ["prog67.py - move generator - 3/8/2016", "prog67.py - 3/8/2016", "miniChess - ECS 10 - 2016"]:
        assert not checks.gives_name(line), line


HEADER = {"rule": "header_comment", "require": ["file_name", "name", "date"]}
NO_NAME = {"file": "student.py", "line": 1,
           "message": "the header comment does not give a name (such as `Name: A. Student`)"}


def test_a_header_with_a_file_name_and_a_date_only_gives_no_name():
    for header in ["# prog67.py\n# 3/8/2016\n", "# prog67.py 3/8/2016\n", "# prog67.py, ECS 10, 3/8/2016\n",
                   "# prog67.py\n# miniChess: move_maker and move_chooser\n# March 8, 2016\n",
                   "# prog67.py\n# Student ID: 912345678\n# 3/8/2016\n"]:
        assert findings(HEADER, header + "def f():\n    pass\n") == [NO_NAME], header
    assert findings(HEADER, "#\n#\ndef f():\n    pass\n") == [
        {"file": "student.py", "line": 1, "message": "no header comment at the top of the file"},
    ]
    for header in ["# prog67.py\n# Jane Doe (SID 912345678), ECS 10 Winter 2016\n# Mar. 8, 2016\n",
                   "# prog67.py\n# Jane Doe (912345678)\n# 3/8/2016\n", "# prog67.py by jane doe, 3/8/2016\n",
                   '"""prog67.py by Wei Chen, March 8th, 2016"""\n']:
        assert findings(HEADER, header + "def f():\n    pass\n") == [], header


def test_a_header_date_may_give_its_day_as_an_ordinal():
    for date in ["March 8th, 2016", "8th March 2016", "1st Jan", "Feb 22nd", "3rd of May 2016",
                 "3/8/2016", "2016-03-08", "March 8, 2016", "8 March", "March 2016"]:
        assert checks.DATE.search(date), date
    for text in ["version 8th", "the 2nd player", "2016"]:
        assert not checks.DATE.search(text), text
    assert findings(NAME_AND_DATE, "# José García\n# March 8th, 2016\ndef f():\n    pass\n") == []
    assert findings(NAME_AND_DATE, "# 作业\n# March\ndef f():\n    pass\n") == [
        {"file": "student.py", "line": 1, "message": "the header comment does not give a date"},
        {"file": "student.py", "line": 1,
         "message": "the header comment does not give a name (such as `Name: A. Student`)"},
    ]


def test_the_checker_answers_every_rule_in_order():
    request = {
        "files": [{"name": "s.py", "source": sent("def f():\n    global g\n"), "entry": True}],
        "rules": [{"rule": "no_global"}, {"rule": "naming"}],
    }
    completed = subprocess.run([sys.executable, "-I", "-B", "-c", checks_source()],
                               input=json.dumps(request), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {"answers": [
        {"findings": [{"file": "s.py", "line": 2, "message": "`global` statement: `global g`"}], "more": 0},
        {"findings": [], "more": 0},
    ]}


def test_the_checker_starts_without_importing_ast_json_or_tokenize():
    """Its start is on a class run's way for every submission: the rules a handout's style
    guide asks for most need none of them."""
    request = {
        "files": [{"name": "s.py", "source": sent("LIMIT = 3\ndef f(x):\n    return x\n"), "entry": True}],
        "rules": [{"rule": "line_length", "max": 80}, {"rule": "naming"}, {"rule": "no_global"}],
    }
    completed = subprocess.run([sys.executable, "-I", "-S", "-B", "-X", "importtime", "-c", checks_source()],
                               input=json.dumps(request), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {"answers": [{"findings": [], "more": 0}] * 3}
    imported = {line.split("|")[-1].strip() for line in completed.stderr.splitlines()
                if line.startswith("import time:")}
    assert not imported & {"json", "ast", "tokenize", "copy", "importlib.util"}, sorted(imported)


def test_an_answer_keeps_the_first_findings_and_counts_the_others():
    names = "".join("    Name%d = 0\n" % i for i in range(500))
    request = {
        "files": [{"name": "s.py", "source": sent("def f():\n" + names), "entry": True}],
        "rules": [{"rule": "naming"}],
        "keep": 20,
    }
    completed = subprocess.run([sys.executable, "-I", "-B", "-c", checks_source()],
                               input=json.dumps(request), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    (answer,) = json.loads(completed.stdout)["answers"]
    assert len(answer["findings"]) == 20 and answer["more"] == 480
    assert answer["findings"][0]["message"] == "variable name `Name0` is not snake_case"


def test_code_nested_deeper_than_the_checker_walks_is_a_finding_not_a_failure():
    chain = "board" + ".x" * 1000
    source = "def main():\n    if over:\n        %s()\n" % chain
    starter = "def main():\n    pass\n"
    assert findings({"rule": "unchanged", "function": "main", "starter": starter}, source) == [
        {"file": "student.py", "line": 1, "message": "the code is nested too deeply to be checked"},
    ]
    # A chain walked, not recursed: the rule judges it.
    assert findings({"rule": "no_print"}, source) == []
    assert findings({"rule": "no_print"}, "def f():\n    %s.print(1)\n    print(2)\n" % chain) == [
        {"file": "student.py", "line": 3, "message": "function `f` prints: `print(2)`"},
    ]


def test_a_snippet_is_the_first_line_of_the_node_as_written():
    source = "def f():\n    größe = 'ü' + g(1,\n        2)\n    return größe\n"
    parsed = ast.parse(source)
    for node in ast.walk(parsed):
        if hasattr(node, "lineno"):
            segment = ast.get_source_segment(source, node).strip().splitlines()[0]
            expected = segment if len(segment) <= checks.MAX_SNIPPET else segment[:checks.MAX_SNIPPET] + "..."
            assert checks.snippet(source, node) == expected


def checks_source():
    """The checker as the grader runs it (`python -I -c`): `boardgrade_source` made a
    module from its text first, as `execution::python::with_source_reading` does."""
    reading = source_of("execution/python/boardgrade_source.py").encode("utf-8").hex()
    return ("import sys as _sys\n"
            "_module = type(_sys)(\"boardgrade_source\")\n"
            "exec(compile(bytes.fromhex(\"%s\").decode(\"utf-8\"), \"boardgrade_source.py\", \"exec\"), "
            "_module.__dict__)\n"
            "_sys.modules[\"boardgrade_source\"] = _module\n"
            "del _sys, _module\n" % reading) + source_of("harness/code/checks.py")


def test_a_cookie_the_tokenizer_reads_differently_is_a_finding():
    # Python's tokenizer takes the carriage return as a blank first line and honours the
    # UTF-7 cookie after it; `detect_encoding` does not, and would read UTF-8: the checks
    # would judge a comment where Python runs a print.
    source = b"\r# coding: utf-7\ndef move_chooser(boards):\n    #+AAo-    print('thinking')\n    return boards[0]\n"
    found = findings({"rule": "no_print", "functions": ["*"]}, source)
    assert found == [{"file": "student.py", "line": 1, "message": "the file does not read: its encoding "
                      "declaration is read differently by Python's tokenizer"}]
    # The same cookie where both read it: judged as it runs.
    plain = b"# coding: utf-7\ndef move_chooser(boards):\n    #+AAo-    print('thinking')\n    return boards[0]\n"
    found = findings({"rule": "no_print", "functions": ["*"]}, plain)
    assert [f["line"] for f in found] == [4], found


def test_line_length_counts_lines_as_python_does():
    long_line = "x = '" + "a" * 50 + "\u2028" + "b" * 50 + "'\n"
    found = findings({"rule": "line_length", "max": 80}, "def f():\n    pass\n" + long_line)
    assert [f["line"] for f in found] == [3], found
    # A form feed between functions is no line: the numbers after it are Python's.
    found = findings({"rule": "line_length", "max": 80},
                     "def f():\n    pass\n\f\ny = '" + "c" * 90 + "'\n")
    assert [f["line"] for f in found] == [4], found


def test_every_rule_of_a_request_judges_the_file_as_written():
    # The file is read once for all the rules: `unchanged` leaves out the statements it may
    # remove (a debug print here) on its own copy, so `no_print` still finds the print.
    source = sent(textwrap.dedent("""
        def main():
            print("debug")
            return 1
    """))
    files = [{"name": "student.py", "source": source, "entry": True}]
    unchanged = {"rule": "unchanged", "function": "main", "may_remove": ["print"],
                 "starter": "def main():\n    return 1\n"}
    no_print = {"rule": "no_print", "functions": ["*"]}
    answers = checks.check_all([unchanged, no_print, unchanged], files)
    assert answers[0] == [] and answers[2] == []
    assert [f["line"] for f in answers[1]] == [3], answers


PLAYS_WITH_A_HUMAN = """
    def score(board):
        return sum(map(sum, board))
    class Search:
        def best(self, boards):
            print("searching", len(boards))
            return max(boards, key=score)
    def move_maker(board, player):
        return [board]
    def move_chooser(boards, player):
        return Search().best(boards)
    def show(board):
        print(board)
    def main():
        board = input("board? ")
        show(move_chooser(move_maker(board, 1), 1))
    main()
"""


def test_no_print_with_asked_checks_what_the_functions_asked_for_run():
    rule = {"rule": "no_print", "functions": ["*"], "asked": ["move_maker", "move_chooser"]}
    # `Search.best` runs (`Search().best`), `score` too (`key=score`); `main` and `show` do not.
    assert [f["message"] for f in findings(rule, PLAYS_WITH_A_HUMAN)] == [
        "function `Search.best` prints: `print(\"searching\", len(boards))`",
    ]
    # Without `asked`, or where the file defines none of them, every function is checked.
    assert len(findings({"rule": "no_print", "functions": ["*"]}, PLAYS_WITH_A_HUMAN)) == 3
    renamed = PLAYS_WITH_A_HUMAN.replace("move_maker", "moves").replace("move_chooser", "choose")
    assert len(findings(rule, renamed)) == 3


def test_outside_functions_with_asked_counts_a_program_that_plays_beside_them():
    rule = {"rule": "outside_functions", "allow": ["imports", "constants"], "asked": ["move_maker", "move_chooser"]}
    assert [(f["line"], f["message"]) for f in findings(rule, PLAYS_WITH_A_HUMAN)] == [
        (13, "function `show` is none of those asked for, nor run by one, and prints: `print(board)`"),
        (15, "function `main` is none of those asked for, nor run by one, and asks for input: "
             "`input(\"board? \")`"),
        (17, "code outside functions: `main()`"),
    ]
    # Without `asked`, only the call at the top level.
    plain = {"rule": "outside_functions", "allow": ["imports", "constants"]}
    assert [f["line"] for f in findings(plain, PLAYS_WITH_A_HUMAN)] == [17]


def test_string_literals_are_allowed_in_helpers_only_the_allowed_functions_call():
    source = textwrap.dedent("""
        def is_game_over(board):
            if 'WKi' not in board:
                announce(board, 'Black')
        def announce(board, winner):
            shout(winner + ' wins!')
        def shout(text):
            print(text)
        def move(board):
            shout('moved')
        def helper():
            return 'x'
        helper()
    """)
    rule = {"functions": ["is_game_over", "main"], "helpers_of": ["is_game_over"]}
    found = list(checks.string_literals(rule, source, tree(source), "chess.py"))
    # `announce` serves `is_game_over` alone; `shout` is also called by `move`; `helper` by the
    # module's own code. `main`'s allowance is its own: what it calls is not.
    assert [message for _, message in found] == [
        "string literal in `move`: `'moved'`",
        "string literal in `helper`: `'x'`",
    ]
