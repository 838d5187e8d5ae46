"""Shared core of boardgrade's call-protocol adapters.

An adapter loads a student's module without running its top-level program, then answers one
protocol command per stdin line with a framed response (the call protocols' PROTOCOL.md):

    :TEXT       one line the call printed
    =TEXT       one line of the return value, in the dialect's fixed form
    !error M    the call raised (`TypeName: message`); the session goes on
    !TAG TEXT   a finding of the adapter about the call (`!changed-input BOARD`)
    .           the end of this command's response

Every line sent gets exactly one response, so output is always charged to the command that
produced it. Student code never writes to the protocol channel: while a call runs its prints
are captured for the `:` lines, and anything written straight to file descriptor 1 (or
printed at import time, outside any call) goes to stderr.
"""

# Only what the adapter needs, and the interpreter's C modules where a pure-Python one would
# import a dozen more: every fresh process and every loaded runner imports what is imported
# here, and starting is most of what a runner costs before its first scenario.
import _ast as ast
import io
import os
import sys
import types

from boardgrade_source import decoded, json_text, python3_tree, read_source, translate_imports_from, walk

NOTHING = object()
"""A command result that prints no return value."""

_MAX_MESSAGE = 300


def _seconds_from(variable):
    """A positive number of seconds the grader set in the environment, or None."""
    try:
        value = float(os.environ.get(variable, ""))
    except ValueError:
        return None
    return value if value > 0 else None


# Wall-clock limits the grader sets for one dialect: on the import of the submission
# (fresh processes only; a loaded runner's import is bounded by the grader), and on each call
# (what loops or sleeps in one function is found in that call, not at the scenario's limit).
# Read before any student code runs.
_IMPORT_LIMIT = _seconds_from("BOARDGRADE_IMPORT_LIMIT")
_CALL_LIMIT = _seconds_from("BOARDGRADE_CALL_LIMIT")
_STUBS = os.environ.get("BOARDGRADE_STUBS")
_OVERRAN_STATUS = 124
"""The exit status after a limit of the adapter ran out; its last stderr line says which:
`boardgrade: import limit: {json}` or `boardgrade: call limit: TEXT`."""


def _seconds_text(seconds):
    return "%g s" % seconds


def _overran(kind, text):
    """Ends the process at once (nothing the student's code does can catch it), the last
    line on stderr saying which limit ran out."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            pass
    os.write(2, ("\nboardgrade: %s: %s\n" % (kind, text)).encode("utf-8", "replace"))
    os._exit(_OVERRAN_STATUS)


try:
    import _signal as _signals
except ImportError:  # pragma: no cover - every CPython has it
    import signal as _signals
"""The signal functions, taken before any student code runs: a submission that puts a
module of its own in `sys.modules` at import cannot stop a limit from being set or
cancelled. (`_signal`, the module under `signal`, skips `signal`'s conversion of the old
handler to an enum, which costs more than the rest of a short call's framing.)"""


def _alarm(seconds, handler):
    """Runs `handler(frame)` after `seconds` of wall-clock time (0: no more). The handler is
    set again each time, so student code that replaced it between calls cannot keep a call
    from its limit."""
    if seconds:
        _signals.signal(_signals.SIGALRM, lambda _signum, frame: handler(frame))
    _signals.setitimer(_signals.ITIMER_REAL, seconds)


def _called_name(frame):
    """The function the frame is calling (`time.sleep`), read from its source where the
    interpreter gives the instruction's columns (3.11+); else the frame's function."""
    code = frame.f_code
    try:
        line, end_line, column, end_column = list(code.co_positions())[frame.f_lasti // 2]
        if line is not None and line == end_line and column is not None:
            text = _source_line(code.co_filename, line).encode("utf-8")
            found = _callee(text[column:end_column].decode("utf-8", "replace"))
            if found:
                return found
    except Exception:
        pass
    return None if code.co_name == "<module>" else code.co_name


_open = open
"""The built-in `open`, taken before any student code runs."""


def _source_line(path, number):
    """Line `number` (from 1) of the file at `path`, as its encoding reads."""
    with _open(path, "rb") as handle:
        text = decoded(handle.read())
    # The lines as the compiler numbers them: `str.splitlines` would also break at a form
    # feed and other characters that end no line of source.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _callee(text):
    """The dotted name a call expression's text starts with (`time.sleep` of
    ` time.sleep (1)`), or None when it is not a name followed by `(`."""
    text = text.lstrip()
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] in "_."):
        end += 1
    name = text[:end]
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return None
    return name if text[end:].lstrip().startswith("(") else None


def _import_overran(root, entry):
    """What to report when the import of the file `entry` (in the folder `root`) runs out of
    time: where the student's code was (its innermost frame), as JSON."""

    def report(frame):
        where = frame
        while where is not None and not os.path.abspath(where.f_code.co_filename).startswith(root + os.sep):
            where = where.f_back
        place = {"file": os.path.relpath(entry, root), "line": 1}
        message = "the import did not finish in %s" % _seconds_text(_IMPORT_LIMIT)
        if where is not None:
            place = {"file": os.path.relpath(os.path.abspath(where.f_code.co_filename), root),
                     "line": where.f_lineno or 1}
            called = _called_name(where)
            if called:
                message += "; it was in `%s`" % called
        place["message"] = message
        _overran("import limit", json_text(place, ascii=True))

    return report


PRINTED_PER_CALL = 8 << 10
"""Characters of what one call prints that are passed on: more than any printed output a
scenario judges (a board or two). A debug print in a function the call runs many times (a
`move_maker` in a chooser's look-ahead) otherwise fills a whole match's output limit with
text no scenario judges; the rest is counted, and named in one last line."""

FLOOD = 64 << 20
"""Characters of one call's printed text past which it is a flood, passed on again so that
it meets the output limit (a call that prints forever ends there, not at its time limit).
A debug print in a look-ahead prints a few MiB in one call at most: it would need millions
of calls, far past any call's time limit, to come near."""


class _PrintedLines(io.TextIOBase):
    """A call's stdout: each line printed goes to the protocol at once as a `:` line (so a
    call that prints forever meets the output limit), a last unfinished line at `close`.
    Past `PRINTED_PER_CALL` characters the text is counted, not passed on, until it floods."""

    def __init__(self, protocol):
        self._protocol = protocol
        self._pending = ""
        self._passed = 0
        self._held = 0

    def write(self, text):
        if self._passed < PRINTED_PER_CALL or self._held >= FLOOD:
            self._passed += len(text)
            self._pending += text
            if "\n" in self._pending:
                lines = self._pending.split("\n")
                self._pending = lines.pop()
                self._protocol.write("".join(":" + line + "\n" for line in lines))
        else:
            self._held += len(text)
        return len(text)

    def flush(self):
        self._protocol.flush()

    def writable(self):
        return True

    @property
    def encoding(self):
        return "utf-8"

    def finish(self):
        if self._pending:
            self._protocol.write(":" + self._pending + "\n")
            self._pending = ""
        if self._held:
            self._protocol.write(
                ":[%d more characters printed by this call, not shown]\n" % self._held
            )
            self._held = 0


class Answer(object):
    """A command's result with findings of the adapter, framed as `!TAG TEXT` lines before
    the return value: `Answer("[[0, 1]]", [("changed-input", "[[1, 0]]")])`."""

    def __init__(self, value, tags=()):
        self.value = value
        self.tags = list(tags)


class _Discard(io.TextIOBase):
    def write(self, text):
        return len(text)

    def writable(self):
        return True


# Methods that fill a container: a table built at the top level (`MOVES.append(...)`,
# `OWNER.update(...)`) is part of the module's definitions, not a program.
_FILLING_METHODS = frozenset(("append", "extend", "insert", "update", "setdefault", "add"))


def _imported_names(tree):
    """The names the module's top-level imports bind (`sys`, `random`, `np`)."""
    names = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in stmt.names)
    return names


def _sets_up(stmt, imported):
    """A call statement that configures or fills rather than plays: a method of an imported
    module (`sys.setrecursionlimit(10000)`, `random.seed(1)`) or a container's filling
    method."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    if not isinstance(func, ast.Attribute):
        return False
    root = func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    return root.id in imported or func.attr in _FILLING_METHODS


def _mentions_name_dunder(test):
    """Whether a condition reads `__name__` (a main guard, however it is written: `"__main__"
    == __name__`, `__name__ in ("__main__",)`, `sys.modules[__name__]`)."""
    for node in walk(test):
        if isinstance(node, ast.Name) and node.id == "__name__":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "__name__":
            return True
    return False


def _definitions(tree):
    """The file's functions and classes by name, wherever they are defined (methods and
    nested functions too): what a name or an attribute in its code may call."""
    found = {}
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, []).append(node)
    return found


# Names whose use marks code as a program: reading the player's input (`input()`,
# `sys.stdin.readline()`, `from sys import stdin`) or ending the process (`exit()`,
# `sys.exit()`, `raise SystemExit`).
_PROGRAM_NAMES = frozenset(("input", "raw_input", "stdin", "exit", "quit", "SystemExit"))
_PROGRAM_ATTRIBUTES = frozenset(("stdin", "__stdin__", "exit", "_exit"))


def _plays(node):
    """Whether one node of code loops until something happens (`while`), reads input (the
    names above, `os.read`, `open(0)`) or ends the process."""
    if isinstance(node, ast.While):
        return True
    if isinstance(node, ast.Name):
        return node.id in _PROGRAM_NAMES
    if isinstance(node, ast.Attribute):
        if node.attr in _PROGRAM_ATTRIBUTES:
            return True
        return node.attr == "read" and isinstance(node.value, ast.Name) and node.value.id == "os"
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        return (name in ("open", "fdopen") and isinstance(first, ast.Constant)
                and first.value in (0, "/dev/stdin"))
    return False


def _sets_up_by_own_function(stmt, definitions):
    """A bare call of a function the file defines (`init_board()`, `setup(board)`) that plays
    nothing: neither the statement nor any function or class of the file it names, however
    deeply (by simple name, or a method by its attribute: `board.fill()`), loops with
    `while`, reads input or ends the process."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    if not (isinstance(func, ast.Name)
            and any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) for d in definitions.get(func.id, ()))):
        return False
    seen = set()
    pending = [stmt]
    while pending:
        for node in walk(pending.pop()):
            if _plays(node):
                return False
            if isinstance(node, ast.Name):
                name = node.id
            elif isinstance(node, ast.Attribute):
                name = node.attr
            else:
                continue
            if name not in seen:
                seen.add(name)
                pending.extend(definitions.get(name, ()))
    return True


def _keep_at_load(stmt, imported, definitions):
    """Definitions, imports, assignments, set-up calls and the `for` loops made of them run
    at load; programs (`while` loops, main guards, prints and other bare calls) do not, so
    a bare `main()` or a game loop never starts.

    A set-up call is a method of an imported module (`random.seed(1)`), a container's
    filling method (`MOVES.append(3)`), or a bare call of a function of the file itself
    (`definitions`, from `_definitions`) that plays nothing: the handout's "initialize your
    board" is often `init_board()` at the top level, and without it every function that
    reads the board would fail. Such a call is a program, and does not run, when the call
    itself, the function, or any function or class of the file they name (transitively: by
    simple name, a method by its attribute), reads input (`input`, `sys.stdin`, `open(0)`,
    `os.read`), has a `while` loop or calls `exit`, `sys.exit` or `quit`: a `main()` that
    builds the board and then plays still never starts. A set-up call that fails, like any
    kept statement (a `test()` whose assert fails), is reported on stderr as at load and the
    load goes on."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef,
                         ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Pass)):
        return True
    if isinstance(stmt, ast.Expr) and _only_looks(stmt.value):
        return True
    if _sets_up(stmt, imported):
        return True
    if _sets_up_by_own_function(stmt, definitions):
        return True
    if isinstance(stmt, ast.If):
        if _mentions_name_dunder(stmt.test):
            return False
        return all(_keep_at_load(s, imported, definitions) for s in stmt.body + stmt.orelse)
    if isinstance(stmt, ast.For):
        return all(_keep_at_load(s, imported, definitions) for s in stmt.body + stmt.orelse)
    if isinstance(stmt, ast.Try):
        return all(_keep_at_load(s, imported, definitions) for s in stmt.body)
    return False


def _only_looks(expression):
    """Whether evaluating `expression` only looks a name up: a constant (a docstring, `...`),
    a name or a dotted name. Python 2 shims test a name this way (`try: xrange` then `except
    NameError: xrange = range`), and the block must run for the functions that use it."""
    while isinstance(expression, ast.Attribute):
        expression = expression.value
    return isinstance(expression, (ast.Name, ast.Constant))


def _message(error):
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    if len(first) > _MAX_MESSAGE:
        first = first[:_MAX_MESSAGE] + "..."
    return "%s: %s" % (type(error).__name__, first)


def frames_of(tb):
    """The frames of a traceback, outermost first, each with its `filename`, `lineno` and
    `name`, as `traceback.extract_tb` lists them (whose import costs more than the rest of
    this module)."""
    found = []
    while tb is not None:
        code = tb.tb_frame.f_code
        found.append(types.SimpleNamespace(filename=code.co_filename, lineno=tb.tb_lineno, name=code.co_name))
        tb = tb.tb_next
    return found


def package_name(path):
    """For a file in a package (its folder holds `__init__.py`): the folder above the topmost
    package of that chain and the file's full dotted name (`pychess.logic.chess_logic`), the
    name Python resolves its relative imports from. None for a file in no package."""
    folder = os.path.dirname(os.path.abspath(path))
    parts = [os.path.splitext(os.path.basename(path))[0]]
    # Up while the folder is a package Python could import by name.
    while os.path.isfile(os.path.join(folder, "__init__.py")) and os.path.basename(folder).isidentifier():
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    if len(parts) == 1 or not parts[-1].isidentifier():
        return None
    return folder, ".".join(parts)


def load_submission(path, name=None, package=None):
    """Runs the definitions of the student's file as a module and returns it; `package` is
    the package it belongs to, for its relative imports."""
    claim_protocol_stdout()
    path = os.path.abspath(path)
    name = name or os.path.splitext(os.path.basename(path))[0]
    try:
        # A Python 2 program is loaded as its 2to3 translation, and its own modules too.
        tree, _, python3_error = python3_tree(read_source(path), path)
    except SyntaxError as error:
        print("boardgrade: cannot load %s: %s (line %s)" % (os.path.basename(path), _message(error), error.lineno),
              file=sys.stderr)
        sys.exit(1)
    if python3_error is not None:
        translate_imports_from(os.path.dirname(path))
    module = types.ModuleType(name)
    module.__file__ = path
    if package is not None:
        module.__package__ = package
    sys.modules[name] = module
    sys.path.insert(0, os.path.dirname(path))
    if _STUBS:
        # Modules the handout's course gave its students (a `graphics.py`), as its whole
        # program finds them: ahead of anything else.
        sys.path.insert(0, _STUBS)
    saved, saved_stdin = sys.stdout, sys.stdin
    sys.stdout = _Discard()
    # A kept assignment may read a line (`name = input("Your name? ")`): it meets the end of
    # an empty input, as a program run without a terminal would, and never takes a line of
    # the protocol.
    sys.stdin = io.StringIO("")
    with standard_fds_kept():
        if _IMPORT_LIMIT:
            _alarm(_IMPORT_LIMIT, _import_overran(os.path.dirname(path), path))
        try:
            imported = _imported_names(tree)
            definitions = _definitions(tree)
            for stmt in tree.body:
                if not _keep_at_load(stmt, imported, definitions):
                    continue
                code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
                try:
                    exec(code, module.__dict__)
                except (Exception, SystemExit) as error:
                    print("boardgrade: at load, line %s: %s%s" % (stmt.lineno, _message(error), _skipped(error)),
                          file=sys.stderr)
        finally:
            if _IMPORT_LIMIT:
                _alarm(0, None)
            sys.stdout, sys.stdin = saved, saved_stdin
    return module


def _skipped(error):
    """What a student reads after the error of a statement skipped at load: the functions
    are called one by one, the game is not played, and what the statement needed is not
    there."""
    if isinstance(error, EOFError):
        return (" (the functions are called one by one, without the game: this `input()` outside "
                "a function got no line, and the statement was skipped; the functions still run)")
    return " (the statement was skipped; the functions still run)"


class standard_fds_kept(object):
    """Descriptors 0 to 2 while student code is imported, and put back after it: a read of
    descriptor 0 (`os.read(0, ...)`, `open(0)`) meets the end of an empty input and never
    takes a line of the protocol, and an import that closes or replaces them
    (`os.closerange(0, 3)`) leaves the protocol and stderr as they were, as the loaded runner
    puts back its own."""

    def __enter__(self):
        self.saved = [os.dup(fd) for fd in (0, 1, 2)]
        empty = os.open(os.devnull, os.O_RDONLY)
        os.dup2(empty, 0)
        os.close(empty)
        return self

    def __exit__(self, *_error):
        for fd, saved in zip((0, 1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        return False


def call(module, function, *args):
    """Calls a student function; a missing one raises NameError like Python would."""
    target = getattr(module, function, None)
    if not callable(target):
        raise NameError("name '%s' is not defined" % function)
    return target(*args)


def _take_stdin():
    """The protocol's stdin, kept for the adapter; student code sees an empty stdin."""
    protocol = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace", newline="\n")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    sys.stdin = open(os.devnull, "r")
    return protocol


_ARITIES = {}
"""Each command handler's fewest and most positional arguments, read once (a signature is
read and bound in more time than a short call takes)."""


def _arity(handler):
    found = _ARITIES.get(handler)
    if found is None:
        found = _ARITIES[handler] = _positional_arity(handler)
    return found


_VARARGS = 0x04
"""`CO_VARARGS`: the code takes `*args`."""


def _positional_arity(handler):
    """The fewest and most positional arguments a handler (a function, or a method bound to
    its first) takes, read from its code as `inspect.signature` reads it (whose import costs
    more than the rest of this module). A required keyword-only argument makes it never
    callable here."""
    bound = 1 if getattr(handler, "__self__", None) is not None else 0
    function = getattr(handler, "__func__", handler)
    code = getattr(function, "__code__", None)
    if code is None:
        return _signature_arity(handler)
    positional = code.co_argcount - bound
    defaults = len(function.__defaults__ or ())
    fewest = max(positional - defaults, 0)
    most = float("inf") if code.co_flags & _VARARGS else positional
    keyword_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    if any(name not in (function.__kwdefaults__ or {}) for name in keyword_only):
        fewest = float("inf")
    return fewest, most


def _signature_arity(handler):
    """`_positional_arity` of a callable with no code of its own (a `functools.partial`, a
    built-in), read from its signature."""
    import inspect

    fewest, most = 0, 0
    for parameter in inspect.signature(handler).parameters.values():
        if parameter.kind == parameter.VAR_POSITIONAL:
            most = float("inf")
        elif parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            most += 1
            if parameter.default is parameter.empty:
                fewest += 1
        elif parameter.kind == parameter.KEYWORD_ONLY and parameter.default is parameter.empty:
            fewest = float("inf")
    return fewest, most


def _parameter_count(handler):
    """How many parameters a handler names (`*args` and keyword-only ones included)."""
    function = getattr(handler, "__func__", handler)
    code = getattr(function, "__code__", None)
    if code is None:
        import inspect

        return len(inspect.signature(handler).parameters)
    bound = 1 if getattr(handler, "__self__", None) is not None else 0
    varargs = 1 if code.co_flags & _VARARGS else 0
    varkw = 1 if code.co_flags & 0x08 else 0
    return code.co_argcount + code.co_kwonlyargcount + varargs + varkw - bound


def _arity_ok(handler, args):
    fewest, most = _arity(handler)
    return fewest <= len(args) <= most


_protocol_out = None


def claim_protocol_stdout():
    """The protocol's stdout, kept for the adapter (claimed once, before any student code
    runs); file descriptor 1 becomes stderr, so output that bypasses `sys.stdout` never lands
    inside a response."""
    global _protocol_out
    if _protocol_out is None:
        sys.stdout.flush()
        _protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="replace", newline="\n")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    return _protocol_out


def answer(commands, words):
    """Runs one command (its words, the first naming it): (error text or None, result)."""
    handler = commands.get(words[0])
    if handler is None:
        return "UnknownCommand: %r" % words[0], NOTHING
    if not _arity_ok(handler, words[1:]):
        return "UsageError: %s takes %d argument(s)" % (words[0], _parameter_count(handler)), NOTHING
    if _CALL_LIMIT:
        _alarm(_CALL_LIMIT, lambda _frame: _overran(
            "call limit", "%s did not return within %s" % (words[0], _seconds_text(_CALL_LIMIT))))
    try:
        return None, handler(*words[1:])
    except MemoryError:
        print("MemoryError", file=sys.stderr)
        raise
    except (Exception, SystemExit) as caught:
        return _message(caught), NOTHING
    finally:
        if _CALL_LIMIT:
            _alarm(0, None)


def frame(error, result):
    """The end of a framed response, after its printed lines: tags, the return value's
    lines or the error, and the closing `.`."""
    lines = []
    if isinstance(result, Answer):
        lines += ["!%s %s" % (tag, text) for tag, text in result.tags]
        result = result.value
    if error is not None:
        lines.append("!error " + " ".join(str(error).splitlines()))
    elif result is not NOTHING:
        lines += ["=" + line for line in str(result).split("\n")]
    lines.append(".")
    return "".join(line + "\n" for line in lines)


def respond(commands, raw, protocol):
    """Runs one protocol line and writes its framed response to `protocol`: what the call
    prints as `:` lines while it runs, then `frame`. `commands` maps a command name to a
    function of the command's words returning the text of the return value, an Answer, or
    NOTHING. Every line gets a response, an empty one `.` alone."""
    words = raw.split()
    error, result = None, NOTHING
    if words:
        printed = _PrintedLines(protocol)
        saved = sys.stdout
        sys.stdout = printed
        try:
            error, result = answer(commands, words)
        finally:
            sys.stdout = saved
            printed.finish()
    protocol.write(frame(error, result))
    protocol.flush()


def serve_lines(protocol_in, protocol_out, commands):
    """Answers each command line of `protocol_in` on `protocol_out` until end of input."""
    for raw in protocol_in:
        respond(commands, raw, protocol_out)


_fork_runner = None
"""Set by boardgrade's loaded runner (boardgrade_fork.py): `serve` then forks a process per
scenario from the loaded state, and serves in each."""


def serve(commands):
    """Answers commands on the protocol's stdin and stdout until end of input."""
    global _protocol_out
    if _fork_runner is not None:
        # The loaded runner's stdout, closed before it is copied: a scenario's process holds
        # no descriptor but its own, and claims its own stdout.
        if _protocol_out is not None:
            _protocol_out.close()
            _protocol_out = None
            sys.stdout = sys.__stdout__
        _fork_runner.become_scenario()  # returns in a scenario's process, its stdio its own
    protocol_in = _take_stdin()
    serve_lines(protocol_in, claim_protocol_stdout(), commands)
