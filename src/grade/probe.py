"""boardgrade's definition probe: what each Python file of a class defines, without running it.

stdin: a first line of the modules the harness provides (stubs), separated by spaces, then
one line per file, `PATH ROOT`, each as base64 of its bytes (a folder name need not be
UTF-8); `root` is the submission folder the file belongs to (its own modules are importable
from there).
stdout: one JSON object per line, in the order given:
{"names": [top-level def/class names], "variables": [top-level variable names],
 "error": null or {"line": N, "message": "..."},
 "imports": [top-level modules imported unconditionally],
 "star": [modules whose names it takes with `from M import *`],
 "taken": [[name, module], ...] for the names in "names" it only takes with `from M import name`
   (module as written, a relative one with its dots),
 "all": [the names of its literal `__all__`] or null,
 "stdin": whether its code reads standard input anywhere,
 "python2": null, or for a Python 2 program (read as its 2to3 translation) the error that
   Python 3 gives on it: {"line": N, "message": "..."}}

Nothing of the student's code is executed: each file is compiled (so a syntax error is the
interpreter's own, with its line) and its tree read; an unconditional top-level import is
checked with importlib's finders, which only look for files.
"""

import binascii
import os
import sys

# Read as the adapter that loads the file reads it (and without `ast`, `tokenize` and `json`,
# whose imports would double what starting the probe costs).
from boardgrade_source import ast, json_text, python3_tree, read_source, walk

MAX_NAMES = 500
MAX_NAME_CHARS = 200
MAX_DEPTH = 32
MAX_MESSAGE = 200
# What reads standard input, as a name or an attribute.
STDIN_NAMES = frozenset(["input", "raw_input", "stdin"])


def top_level(body):
    """The statements of a body, and those under its top-level if/try blocks (Python 2
    fallbacks, `if __name__` blocks), in order."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            nested = [stmt.body, stmt.orelse]
        elif isinstance(stmt, ast.Try):
            nested = [stmt.body] + [handler.body for handler in stmt.handlers] + [stmt.orelse, stmt.finalbody]
        else:
            yield stmt
            continue
        for block in nested:
            for inner in top_level(block):
                yield inner


def definitions(body):
    """Top-level def/class names, also those under a top-level if/try, and names taken from
    a helper module by `from helpers import f` (the adapter keeps imports, so the function
    is there when the module loads)."""
    names = []
    for stmt in top_level(body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(stmt.name)
        elif isinstance(stmt, ast.ImportFrom):
            names += [alias.asname or alias.name for alias in stmt.names if alias.name != "*"]
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.Name, ast.Attribute, ast.Lambda)):
            # Another name for a function (`move_maker = MiniChess.move_maker`, a lambda).
            names += [target.id for target in stmt.targets if isinstance(target, ast.Name)]
    return names


def taken(body):
    """[name, module] for each name a body binds only by `from module import name` (not
    also by a def, a class or an assignment): routing prefers the file that defines a
    required name to one that takes it from that file (a GUI script that imports the class
    it shows). The module keeps its leading dots when relative."""
    found, own = [], set()
    for stmt in top_level(body):
        if isinstance(stmt, ast.ImportFrom):
            module = "." * stmt.level + (stmt.module or "")
            found += [[alias.asname or alias.name, module] for alias in stmt.names if alias.name != "*"]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            own.update(name for target in stmt.targets for name in bound_by(target))
    return [pair for pair in found if pair[0] not in own]


def bound_by(target):
    """The names an assignment target binds: `x`, and each name of `x, (y, *z)`."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return bound_by(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in bound_by(element)]
    return []


def variables(body):
    """Top-level variable names, also those under a top-level if/try, each once: a handout
    may ask for a variable by name (`game_board = {}`) as others ask for a function. Kept
    apart from `definitions`, so a variable is never suggested for a missing function."""
    names, seen = [], set()
    for stmt in top_level(body):
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        else:
            continue
        for name in (name for target in targets for name in bound_by(target)):
            if name not in seen:
                seen.add(name)
                names.append(name)
    return names


def star_imports(body):
    """The modules a body takes every name of (`from helpers import *`), where
    `definitions` sees its own names: the grader adds their names when they are the
    submission's own files. A relative one (`from .helpers import *`) is left out: the file
    graded is loaded as a top-level module, where it fails."""
    return [stmt.module for stmt in top_level(body)
            if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0
            and any(alias.name == "*" for alias in stmt.names)]


def exported(body):
    """The names of a literal top-level `__all__` (what `import *` takes from the module),
    or None where there is none or it is not a literal list or tuple of strings."""
    names = None
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                for t in stmt.targets):
            value = stmt.value
            literal = isinstance(value, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)
            names = [e.value for e in value.elts] if literal else None
    return names


def own_modules(root):
    """Module and package names anywhere in the submission folder (or the file alone), down
    to MAX_DEPTH folders: walked with a list, not recursion, so no nesting of folders can
    stop the probe (os.walk recurses on older Pythons)."""
    if os.path.isfile(root):
        return {os.path.splitext(os.path.basename(root))[0]}
    found = set()
    pending = [(root, 0)]
    while pending:
        folder, depth = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                found.add(entry.name)
                if depth < MAX_DEPTH:
                    pending.append((entry.path, depth + 1))
            elif entry.name.endswith((".py", ".so", ".pyc")):
                found.add(os.path.splitext(entry.name)[0])
    return found


def kept(names):
    """The names an answer carries: at most MAX_NAMES, none longer than MAX_NAME_CHARS (a
    name that long names nothing a handout asks for, and the answers must stay small)."""
    return [name for name in names if len(name) <= MAX_NAME_CHARS][:MAX_NAMES]


def imports(tree):
    """(line, top-level module) of each unconditional top-level import."""
    found = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            names = [alias.name for alias in stmt.names]
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module:
            names = [stmt.module]
        else:
            continue
        found += [(stmt.lineno, name.split(".")[0]) for name in names]
    return found


def missing_import(tree, available):
    """The first unconditional top-level import no finder can locate: (line, name)."""
    for line, top in imports(tree):
        if top in available or top in sys.builtin_module_names:
            continue
        if not findable(top):
            return line, top
    return None


def findable(top):
    """Whether a finder of `sys.meta_path` locates the top-level module `top`, as
    `importlib.util.find_spec` asks them (whose import, with `contextlib`'s, costs more than
    the probe's work)."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            if find(top, None) is not None:
                return True
        except (ImportError, ValueError):
            return False
    return False


def short(text):
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def reads_stdin(tree):
    """Whether the code reads standard input anywhere: `input`, `raw_input`, `sys.stdin`,
    `fileinput.input`, `open(0)`. A program that reads none cannot play a game typed into it."""
    for node in walk(tree):
        if isinstance(node, ast.Name) and node.id in STDIN_NAMES:
            return True
        if isinstance(node, ast.Attribute) and node.attr in STDIN_NAMES:
            return True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0):
            return True
    return False


def answer(names=(), variables=(), error=None, imports=(), star=(), exports=None, taken=(), stdin=False,
           python2=None):
    return {"names": list(names), "variables": list(variables), "error": error, "imports": list(imports),
            "star": list(star), "all": exports, "taken": list(taken), "stdin": stdin, "python2": python2}


def syntax_error(error):
    """A SyntaxError (or IndentationError) as an answer's error: its line and message."""
    detail = error.msg or "invalid syntax"
    return {"line": error.lineno or 1, "message": "%s: %s" % (type(error).__name__, short(detail))}


def probe(path, available):
    try:
        # A Python 2 program runs translated (the adapters and the launcher translate it as
        # they load it): it defines what its translation defines. Its error as Python 3 is
        # kept, for a dialect whose handout asks for Python 3.
        tree, text, python3_error = python3_tree(read_source(path), path)
        # What only compiling finds (`return` outside a function), as the interpreter says it.
        # From the text: the tree of code nested as deep as the interpreter reads would not
        # compile.
        compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        return answer(error=syntax_error(error))
    except (ValueError, RecursionError, MemoryError) as error:
        return answer(error={"line": 1, "message": "%s: %s" % (type(error).__name__, short(error))})
    names = kept(definitions(tree.body))
    exports = exported(tree.body)
    found = answer(
        names=names,
        variables=kept(variables(tree.body)),
        imports=kept(sorted({top for _, top in imports(tree)})),
        star=kept(star_imports(tree.body)),
        exports=None if exports is None else kept(exports),
        taken=[pair for pair in taken(tree.body) if pair[0] in names and len(pair[1]) <= MAX_NAME_CHARS],
        stdin=reads_stdin(tree),
        python2=None if python3_error is None else syntax_error(python3_error),
    )
    missing = missing_import(tree, available)
    if missing:
        line, name = missing
        found["error"] = {"line": line, "message": "ModuleNotFoundError: No module named %r" % name}
    return found


def main():
    # The probe's own folder is not a place student modules come from.
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != os.path.dirname(os.path.abspath(__file__))]
    lines = sys.stdin.buffer.read().decode("ascii").splitlines()
    provided = set(lines[0].split()) if lines else set()
    roots = {}
    for line in lines[1:]:
        # Paths come as base64 of their bytes: a folder name need not be UTF-8.
        path, root = (os.fsdecode(binascii.a2b_base64(p)) for p in line.split())
        try:
            if root not in roots:
                roots[root] = own_modules(root) | provided
            found = probe(path, roots[root])
        except Exception as failure:  # an unreadable file, or a tree the probe cannot walk
            found = answer(error={"line": 1, "message": "cannot read: %s" % short(failure)})
        # A path's undecodable bytes (lone surrogates) in a message become U+FFFD.
        sys.stdout.write(json_text(found).encode("utf-8", "replace").decode("utf-8") + "\n")
        # Each answer leaves as it is made: a probe stopped on a file too slow to compile
        # has given the files before it.
        sys.stdout.flush()


if __name__ == "__main__":
    main()
