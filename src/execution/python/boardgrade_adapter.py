"""Shared core of boardgrade's call-protocol adapters.

An adapter loads a student's module without running its top-level program, then answers one
protocol command per stdin line: what the call printed (ended with a newline), then the
return value in the dialect's fixed form. An exception in student code is one line
`!error TypeName: message` and the session goes on.
"""

import ast
import inspect
import io
import os
import sys
import types

NOTHING = object()
"""A command result that prints no return value."""

_MAX_MESSAGE = 300


class _TrackingStdout(io.TextIOBase):
    """Passes writes through and remembers whether the last one ended a line."""

    def __init__(self, inner):
        self._inner = inner
        self.at_line_start = True

    def write(self, text):
        if text:
            self._inner.write(text)
            self.at_line_start = text.endswith("\n")
        return len(text)

    def flush(self):
        self._inner.flush()

    def writable(self):
        return True

    @property
    def encoding(self):
        return self._inner.encoding

    def end_line(self):
        if not self.at_line_start:
            self.write("\n")


class _Discard(io.TextIOBase):
    def write(self, text):
        return len(text)

    def writable(self):
        return True


def _keep_at_load(stmt):
    """Definitions, imports and assignments run at load; programs (calls, loops, main
    guards, prints) do not, so a bare `main()` or a game loop never starts."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef,
                         ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return True
    if isinstance(stmt, ast.If):
        test = ast.unparse(stmt.test).replace("'", '"').replace(" ", "")
        if "__name__" in test:
            return False
        return all(_keep_at_load(s) for s in stmt.body + stmt.orelse)
    if isinstance(stmt, ast.Try):
        return all(_keep_at_load(s) for s in stmt.body)
    return False


def _message(error):
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    if len(first) > _MAX_MESSAGE:
        first = first[:_MAX_MESSAGE] + "..."
    return "%s: %s" % (type(error).__name__, first)


def load_submission(path, name=None):
    """Runs the definitions of the student's file as a module and returns it."""
    path = os.path.abspath(path)
    name = name or os.path.splitext(os.path.basename(path))[0]
    with open(path, "rb") as handle:
        source = handle.read().decode("utf-8", errors="replace")
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:
        print("boardgrade: cannot load %s: %s (line %s)" % (os.path.basename(path), _message(error), error.lineno),
              file=sys.stderr)
        sys.exit(1)
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    sys.path.insert(0, os.path.dirname(path))
    saved = sys.stdout
    sys.stdout = _Discard()
    try:
        for stmt in tree.body:
            if not _keep_at_load(stmt):
                continue
            code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
            try:
                exec(code, module.__dict__)
            except (Exception, SystemExit) as error:
                print("boardgrade: at load, line %s: %s" % (stmt.lineno, _message(error)), file=sys.stderr)
    finally:
        sys.stdout = saved
    return module


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


def _arity_ok(handler, args):
    try:
        inspect.signature(handler).bind(*args)
        return True
    except TypeError:
        return False


def answer(commands, words):
    """Runs one command (its words, the first naming it): (error text or None, result)."""
    handler = commands.get(words[0])
    if handler is None:
        return "UnknownCommand: %r" % words[0], NOTHING
    if not _arity_ok(handler, words[1:]):
        return "UsageError: %s takes %d argument(s)" % (words[0], len(inspect.signature(handler).parameters)), NOTHING
    try:
        return None, handler(*words[1:])
    except MemoryError:
        print("MemoryError", file=sys.stderr)
        raise
    except (Exception, SystemExit) as caught:
        return _message(caught), NOTHING


def respond(out, error, result):
    """Frames one command's response after what the call printed: the printed text ended
    with a newline, then `!error ...` or the return value (nothing for NOTHING)."""
    out.end_line()
    if error is not None:
        out.write("!error %s\n" % error)
    elif result is not NOTHING:
        out.write("%s\n" % result)
    out.flush()


def serve_lines(protocol, out, commands):
    """Answers each command line of `protocol` on `out` until end of input."""
    for raw in protocol:
        words = raw.split()
        if not words:
            continue
        error, result = answer(commands, words)
        respond(out, error, result)


def serve(commands):
    """Answers commands until end of input. `commands` maps a command name to a function of
    the command's words returning the text of the return value, or NOTHING."""
    protocol = _take_stdin()
    out = _TrackingStdout(sys.stdout)
    sys.stdout = out
    serve_lines(protocol, out, commands)
