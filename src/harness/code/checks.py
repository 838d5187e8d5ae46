"""boardgrade's code checks: rules a handout states about a submission's code, read from its
parse tree without running any of it.

stdin: a JSON object {"files": [{"name": ..., "source": ..., "entry": bool}, ...],
"rules": [{"rule": NAME, ...the rule's settings}, ...]}: every check of a submission at once,
as starting Python is most of a check's cost. The grader reads the files and passes their
bytes: this script opens nothing. A file's "source" is its exact bytes, each byte the
character of its value (U+0000 to U+00FF, so `source.encode("latin-1")` gives them back), and
is decoded here as Python's import system decodes a file it runs (byte order mark, coding
cookie, universal newlines): the checks judge the text that would run, whatever its
encoding. A file the grader did not read has "unread" (why) in place of its source: a file
too large, or a record standing for the files past the most read.
stdout: one JSON object {"answers": [{"findings": [{"file", "line", "message"}, ...]}, ...]},
an answer per rule, in the rules' order.

A file that does not decode or parse, a file not read, or an entry file that defines no
function, is one finding. Only the entry file is checked, except by `forbidden_imports`,
which reads every file of the submission.
"""

import re
import sys

# The file is read, and the request and answer written, as the adapters and the probe do it,
# with the interpreter's C modules only: `ast`, `json` and `tokenize` would each import a
# dozen modules more, and starting the checker is most of what a check costs. The standard
# library's `ast` (its `dump` and `get_docstring`), `copy` and `tokenize` are imported by the
# few rules that use them.
from boardgrade_source import ast, json_text, json_value, parse, python3_tree, source_encoding, walk

MAX_SNIPPET = 60


class Pattern(object):
    """A regular expression compiled when it is first used: a request asks for a few rules,
    and compiling every rule's patterns would cost more than checking them."""

    def __init__(self, pattern, flags=0):
        self._source = (pattern, flags)
        self._compiled = None

    def __getattr__(self, name):
        if self._compiled is None:
            self._compiled = re.compile(*self._source)
        return getattr(self._compiled, name)


SNAKE = Pattern(r"^_{0,2}[a-z][a-z0-9_]*$|^_$")
DUNDER = Pattern(r"^__[a-z][a-z0-9_]*__$")
UPPER = Pattern(r"^_?[A-Z][A-Z0-9_]*$")
CAP_WORDS = Pattern(r"^_?[A-Z][A-Za-z0-9]*$")
# A day of the month, maybe an ordinal: `8`, `8th`, `1st`, `22nd`.
DAY = r"\d{1,2}(st|nd|rd|th)?"
MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
DATE = Pattern(
    r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b"
    r"|\b" + MONTH + r"\.?\s+" + DAY + r"\b"
    r"|\b" + DAY + r"\s+(of\s+)?" + MONTH + r"\b"
    r"|\b" + MONTH + r"\.?,?\s+(19|20)\d\d\b",
    re.IGNORECASE,
)
FILE_NAME = Pattern(r"\b[\w-]+\.py\b")
# A letter of any script (`é`, `李`), which names are written in; `[A-Za-z]` would take
# `José García` for no name.
LETTER = r"[^\W\d_]"
# A word of a name: a letter, then letters and the dots, apostrophes and hyphens of `A.`,
# `O'Neil`, `Lee-Smith`. Whether it is capitalised is asked of its first letter
# (`capitalised`), as `re` has no class of upper-case letters.
NAME_REST = r"(?:" + LETTER + r"|[.'\u2019-])"
NAME_WORD = LETTER + NAME_REST + "*"
# A name as a header gives it, in any case: after a label at the start of a line or field
# (`Name: A. Student`, `Author - ann lee`, `Author: 李明`, `By: jane doe`; `Student ID: ...`
# labels no name), after `by` (`prog67.py by Ángel Pérez`, `prog67.py by jane doe`), or alone
# as two to four words, none of them a common word (`NOT_NAMES`): capitalised in any field of
# a line (`Ann Lee`, `José García`, `Jane Doe, ECS 10`), in lower case only where nothing else
# is left on the line (`jane doe (SID 912345678)`). Words of a script without case are not
# taken alone, as too many lines would pass for a name.
NAME_LABEL = Pattern(
    r"^(student name|name|authors?|student|programmer|written by|created by|coded by|by(?=\s*[:=]))"
    r"\b(?!\s*(id|no|number|#)\b)\s*([:=-]?)(.*)$",
    re.IGNORECASE,
)
BY = Pattern(r"\bby\b[\s:=]+(.*)$", re.IGNORECASE)
BARE_NAME = Pattern(r"^" + NAME_WORD + r"(\s+" + NAME_WORD + r"){1,3}$")
WHOLE_NAME_WORD = Pattern(r"^" + NAME_WORD + r"$")
# What stands around a name in a header and is no part of it, left out before a line is read
# for one: a student ID (`SID 912345678`, `ID# 912345678`, a number of five digits or more), an
# email, a course, section or assignment (`ECS 10`, `Section A03`, `Program 6`) and a term
# (`Winter 2016`). Brackets are dealt with first (`BRACKETED`).
AROUND_NAME = Pattern(
    r"\S+@\S+"
    r"|\b(student\s+)?(s?id|student\s+(no|number))\b\.?\s*(#|no\.?|number)?\s*[:#=]?\s*[a-z]?\d[\w-]*"
    r"|\b\d{5,}\b"
    r"|\b(ecs|cs|cse|csc|ece|sec|sect|section|lab|dis|discussion|hw|homework|assignment|program|prog|project)"
    r"\b\.?\s*#?\s*[a-z]?\d+[a-z]?\b"
    r"|\b(winter|spring|summer|fall|autumn)(\s+(quarter|semester|term))?\s+'?\d{2,4}\b",
    re.IGNORECASE,
)
# A group in brackets: `(SID 912345678)`, `[912345678]`, `<jdoe@ucdavis.edu>`, `(jdoe)`.
BRACKETED = Pattern(r"[(\[<{]([^()\[\]<>{}]*)[)\]>}]")
# Words that are not names (in lower case; compared in lower case): a line of two to four
# words is a name only if it has none of them (`Jane Doe` and `jane doe` are names; `Move
# Generator`, `Pown Chess`, `written in python` and `alpha beta search` are not). Words that
# are also names (`Will`, `May`, `Page`, `Day`, `Summer`, `Ai`, `He`, `No`) and the particles of
# names (`van`, `de`, `bin`, `an`) are not in it.
NOT_NAMES = frozenset("""
    a about above after again against all also am and any are as at be because been before
    being below between both but by can could did does doing down during each either every few
    for from further had has have having her here hers him his how i if in into is it its
    itself just me more most must my nor not now of off on once one only or other our ours out
    over own per same she should some such than that the their theirs them then there these
    they this those three through to too two under until up upon us very via was we were what
    when where which while who whom why with within without would you your yours python python3
    idle program programs programming prog code coded coding file files function functions
    module script assignment assignments homework hw project lab labs class classes course
    section quarter semester term spring fall ecs cs cse university student students name names
    date due author version updated modified created written revised edited submitted last
    first final draft test tests testing data example examples todo note notes description
    comment comments header game games chess minichess hexapawn pawn pawns board boards move
    moves moving maker makers chooser choosers generator generators generate generates
    generating evaluator evaluation evaluate evaluates evaluating heuristic heuristics search
    searches searching minimax alpha beta pruning prune tree trees depth ply plies score scores
    scoring next players computer human win wins winning lose loses losing row rows column
    columns square squares empty list lists helper helpers core functionality solution
    solutions implementation implements simple basic smart smarter random greedy strategy memo
    memoization cache table tables interface play plays playing turn turns rule rules hand
    reference default main mini part parts slides lecture week weeks days today time new old
    good big large top bottom forward diagonal capture captures step steps edge side sides end
    start returns return value values use uses using used see copy copies state states
""".split())
FIELD_SEPARATOR = Pattern(r"\s+[-\u2013\u2014|]+\s+|[,;|]")
# The same, and a run of spaces (`prog67.py  jane doe  2016/03/08`, `spin   busy-loop forever`).
SPACED_FIELDS = Pattern(r"\s+[-\u2013\u2014|]+\s+|[,;|]|\s{2,}")


_LINES = {}
"""The lines of the source being judged (one at a time), split once: a finding's snippet is
looked up by line, and a file may have many findings."""


def source_lines(source):
    if _LINES.get("source") is not source:
        _LINES.update(source=source, lines=source.splitlines())
    return _LINES["lines"]


def snippet(source, node):
    """The node's first line of source, shortened (what `ast.get_source_segment` gives of its
    first line, without splitting the whole source again for each finding)."""
    lines = source_lines(source)
    index = getattr(node, "lineno", 0) - 1
    if not 0 <= index < len(lines):
        return ""
    start = getattr(node, "col_offset", 0) or 0
    end = getattr(node, "end_col_offset", None) if getattr(node, "end_lineno", None) == node.lineno else None
    line = lines[index].encode("utf-8")[start:end].decode("utf-8", "replace").strip()
    return line if len(line) <= MAX_SNIPPET else line[:MAX_SNIPPET] + "..."


def is_docstring(stmt):
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def functions_of(tree):
    """(qualified name, node) of every top-level function and every method of a top-level
    class."""
    found = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((stmt.name, stmt))
        elif isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((stmt.name + "." + inner.name, inner))
    return found


def named(name, names):
    """Whether the function `name` (maybe `Class.method`) is one of `names`."""
    return "*" in names or name in names or name.split(".")[-1] in names


def comment_lines(source):
    """{line: comment text} of every comment."""
    import io
    import tokenize

    comments = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return comments


# -- the rules: each takes (rule settings, source, tree, file name) and yields (line, message)


def constant_value(node):
    """A value built from literals and other names, with no call."""
    for inner in walk(node):
        if isinstance(inner, (ast.Call, ast.Lambda, ast.comprehension, ast.Await, ast.Yield,
                              ast.YieldFrom, ast.NamedExpr)):
            return False
    return True


def allowed_outside(stmt, allow, read=frozenset()):
    """Whether the top-level statement is one `allow` lets stand outside functions; `read`:
    the names the file's functions use from the top level (`read_by_functions`)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return True
    if "docstrings" in allow and is_docstring(stmt):
        return True
    if "imports" in allow and isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    if "constants" in allow:
        if is_alias(stmt):
            return True
        if isinstance(stmt, ast.Assign):
            targets = []
            for target in stmt.targets:
                targets += target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            if all(isinstance(t, ast.Name) and UPPER.match(t.id) for t in targets) and constant_value(stmt.value):
                return True
        if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                and UPPER.match(stmt.target.id) and stmt.value is not None
                and constant_value(stmt.value)):
            return True
    if "values" in allow and module_value(stmt) and (empty_value(stmt.value) or all(
            name in read for name in module_value(stmt))):
        return True
    if "main_call" in allow and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if isinstance(call.func, ast.Name) and call.func.id == "main" and not call.args and not call.keywords:
            return True
    if "main_guard" in allow and isinstance(stmt, ast.If) and is_main_guard(stmt.test):
        return True
    if isinstance(stmt, ast.Try):
        parts = stmt.body + stmt.orelse + stmt.finalbody
        for handler in stmt.handlers:
            parts += handler.body
        return all(isinstance(s, ast.Pass) or looks_up(s) or allowed_outside(s, allow, read) for s in parts)
    return False


# Calls that make an empty container, whose value is no test data: `dict()`, `set()`,
# `defaultdict(int)`.
EMPTY_CALLS = ("dict", "list", "set", "tuple", "frozenset", "OrderedDict", "collections.OrderedDict",
               "Counter", "collections.Counter", "defaultdict", "collections.defaultdict")


def module_value(stmt):
    """The names a top-level assignment gives a value that runs nothing (literals and names,
    or an empty container): `memo = {}`, `directions = {1: 1, 2: -1}`, `memo: dict = {}`,
    `cache, seen = {}, set()`. None for any other statement."""
    if isinstance(stmt, ast.Assign):
        targets = []
        for target in stmt.targets:
            targets += target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    else:
        return None
    if not all(isinstance(t, ast.Name) for t in targets):
        return None
    if not (constant_value(stmt.value) or empty_value(stmt.value)):
        return None
    return [t.id for t in targets]


def empty_value(node):
    """`{}`, `[]`, `()`, `set()`, `dict()`, `defaultdict(int)`, or a tuple of them: a container
    with nothing in it yet, a table the functions fill (a memo, a cache), never test data."""
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.List):
        return not node.elts
    if isinstance(node, ast.Tuple):
        return all(empty_value(element) for element in node.elts)
    if isinstance(node, ast.Call) and dotted(node.func) in EMPTY_CALLS and not node.keywords:
        if dotted(node.func).endswith("defaultdict"):
            return len(node.args) <= 1 and all(dotted(arg) is not None for arg in node.args)
        return not node.args
    return False


def read_by_functions(tree):
    """The names the file's functions (and methods) use from the top level of the module:
    each name a function reads, or declares `global`, that is none of its parameters and is
    not assigned in it."""
    read = set()
    for _, function in functions_of(tree):
        declared, local, loaded = set(), set(), set()
        for node in walk(function):
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                declared.update(node.names)
            elif isinstance(node, ast.Name):
                (loaded if isinstance(node.ctx, ast.Load) else local).add(node.id)
            elif isinstance(node, ast.arg):
                local.add(node.arg)
        read |= declared | (loaded - local)
    return read


def is_alias(stmt):
    """`name = other` or `name = Class.method`: another name for a function or a value, as a
    Python 2 shim (`xrange = range`) or a function asked for kept in a class
    (`move_maker = MiniChess.move_maker`) gives; nothing runs."""
    return (isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets)
            and dotted(stmt.value) is not None)


def looks_up(stmt):
    """A statement that only looks a name up, as a shim tests one (`try: xrange`)."""
    return isinstance(stmt, ast.Expr) and dotted(stmt.value) is not None


def is_main_guard(test):
    """`__name__ == "__main__"`, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(mains) == 1


def outside_functions(rule, source, tree, _file):
    allow = set(rule.get("allow", []))
    read = read_by_functions(tree) if "values" in allow else frozenset()
    for stmt in tree.body:
        if allowed_outside(stmt, allow, read):
            continue
        if "values" in allow and module_value(stmt):
            # A filled value that no function reads is what a test leaves behind.
            yield stmt.lineno, "code outside functions: `%s` (a value that no function reads, such as test data)" % (
                snippet(source, stmt))
        else:
            yield stmt.lineno, "code outside functions: `%s`" % snippet(source, stmt)
    run = reached(tree, rule.get("asked"))
    if run is None:
        return
    for name, function in functions_of(tree):
        talking = None if name in run else first_call(function, PLAY_CALLS)
        if talking is not None:
            yield talking.lineno, "function `%s` is none of those asked for, nor run by one, and %s: `%s`" % (
                name, verb_of(talking), snippet(source, talking))


# What a program that plays with a human calls, beside the functions asked for.
PLAY_CALLS = ("print", "input")


def reached(tree, asked):
    """The qualified names of the functions `asked` names and of those they name in turn (a
    call, `self.score(...)`, `key=evaluate`): what runs when a function asked for is called.
    None when there is no such list, or the file defines none of them (nothing to go by)."""
    if not asked:
        return None
    functions = functions_of(tree)
    nodes = dict(functions)
    by_name = {}
    for name, _ in functions:
        by_name.setdefault(name.split(".")[-1], []).append(name)
    pending = [name for name, _ in functions if named(name, asked)]
    if not pending:
        return None
    seen = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in walk(nodes[name]):
            pending += [other for other in by_name.get(mentioned(node), ()) if other not in seen]
    return seen


def mentioned(node):
    """The name a `Name` or an attribute (`self.score`) mentions, else None."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def first_call(function, calls):
    """The first call in `function` of one of `calls` (dotted names), else None."""
    found = [node for node in walk(function) if isinstance(node, ast.Call) and dotted(node.func) in calls]
    return min(found, key=lambda node: (node.lineno, node.col_offset), default=None)


def verb_of(call):
    return "asks for input" if dotted(call.func) == "input" else "prints"


def without(statements, removable):
    """The statements, with those that mention a removable name dropped (nested bodies too)
    and the docstring left out."""
    kept = []
    for i, stmt in enumerate(statements):
        if i == 0 and is_docstring(stmt):
            continue
        names = {n.id for n in walk(stmt) if isinstance(n, ast.Name)}
        names |= {n.attr for n in walk(stmt) if isinstance(n, ast.Attribute)}
        if names & removable and not isinstance(stmt, (ast.While, ast.For, ast.If, ast.With, ast.Try)):
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(stmt, field, None), list):
                setattr(stmt, field, without(getattr(stmt, field), removable))
        kept.append(stmt)
    return kept


def normalized(function, removable):
    """The function's dump with removable statements, its docstring and decorators left out.
    It works on a copy: the tree is shared by every rule of a request."""
    import copy

    function = copy.deepcopy(function)
    function.body = without(function.body, removable)
    function.decorator_list = []
    return stdlib_ast().dump(function, include_attributes=False)


def top_function(tree, name):
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return stmt
    return None


def unchanged(rule, _source, tree, _file):
    name = rule["function"]
    removable = set(rule.get("may_remove", []))
    starter = top_function(parse(rule["starter"], "<starter>"), name)
    mine = top_function(tree, name)
    if mine is None:
        yield 1, "function `%s` of the starter code is missing" % name
        return
    if starter is not None and normalized(mine, removable) != normalized(starter, removable):
        yield mine.lineno, "function `%s` differs from the starter code" % name


def string_literals(rule, source, tree, _file):
    functions = functions_of(tree)
    allowed = {name for name, _ in functions if named(name, rule.get("functions", []))}
    allowed |= serving(tree, {name for name, _ in functions if named(name, rule.get("helpers_of", []))})
    for name, function in functions:
        if name in allowed:
            continue
        docstring = function.body[0].value if function.body and is_docstring(function.body[0]) else None
        inside_fstrings = set()
        for node in walk(function):
            if isinstance(node, ast.JoinedStr):
                inside_fstrings |= {id(v) for v in walk(node) if v is not node}
        for node in walk(function):
            if node is docstring or id(node) in inside_fstrings:
                continue
            literal = isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Constant) and isinstance(node.value, str))
            if literal:
                yield node.lineno, "string literal in `%s`: `%s`" % (name, snippet(source, node))


def serving(tree, allowed):
    """`allowed` and the top-level functions only they call, whatever the depth: a helper
    that prints the winner for `is_game_over` is part of printing the winner. A function
    called from anywhere else (another function, `main`, the module's own code) is not."""
    allowed = set(allowed)
    top = [stmt for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
    callers = {function.name: set() for function in top}
    inside = set()
    for function in top:
        for node in walk(function):
            inside.add(id(node))
            if isinstance(node, ast.Name) and node.id in callers and node.id != function.name:
                callers[node.id].add(function.name)
    for node in walk(tree):
        if id(node) not in inside and isinstance(node, ast.Name) and node.id in callers:
            callers[node.id].add(None)
    grown = True
    while grown:
        grown = False
        for name, by in callers.items():
            if name not in allowed and by and by <= allowed:
                allowed.add(name)
                grown = True
    return allowed


def required(rule, source, tree, _file):
    defined = {name: node for name, node in functions_of(tree)}
    for name in rule.get("functions", []):
        node = defined.get(name)
        if node is None:
            yield 1, "required function `%s` is not defined" % name
            continue
        own = {id(n) for n in walk(node)}
        used = any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in own
            for n in walk(tree)
        )
        if not used:
            yield node.lineno, "required function `%s` is defined but never called" % name
    for name in rule.get("dicts", []):
        assigned = None
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else (
                [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                value = stmt.value
                if isinstance(value, (ast.Dict, ast.DictComp)) or (
                        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"):
                    assigned = stmt
                    break
        if assigned is None:
            yield 1, "required dictionary `%s` is not created at the top level of the file" % name
            continue
        used = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in walk(tree))
        if not used:
            yield assigned.lineno, "required dictionary `%s` is created but never used" % name


def docstrings(rule, source, tree, _file):
    exempt = rule.get("except", [])
    comments = comment_lines(source) if rule.get("comments", False) else {}
    for name, function in functions_of(tree):
        if named(name, exempt):
            continue
        doc = stdlib_ast().get_docstring(function)
        if doc and doc.strip():
            continue
        if comments:
            first = min([function.lineno] + [d.lineno for d in function.decorator_list])
            body = function.body[0].lineno if function.body else function.lineno
            above = comments.get(first - 1)
            inside = [comments[line] for line in range(function.lineno + 1, body) if line in comments]
            if above or any(inside):
                continue
        what = "docstring or comment" if rule.get("comments", False) else "docstring"
        yield function.lineno, "function `%s` has no %s" % (name, what)


def header_text(source, tree):
    """The comments before the first statement, and the module docstring."""
    first = tree.body[0].lineno if tree.body else len(source.split("\n")) + 1
    comments = comment_lines(source)
    parts = [text for line, text in sorted(comments.items()) if line < first]
    doc = stdlib_ast().get_docstring(tree)
    if doc:
        parts.append(doc)
    # What a header says fits in its first lines, each of a line's length: the patterns that
    # read it never meet a line built to make them slow.
    lines = "\n".join(p for p in parts if p).split("\n")[:HEADER_LINES]
    return "\n".join(line[:HEADER_LINE_CHARS] for line in lines)


HEADER_LINES = 200
HEADER_LINE_CHARS = 400


def header_comment(rule, source, tree, _file):
    header = header_text(source, tree)
    if not header.strip():
        yield 1, "no header comment at the top of the file"
        return
    wanted = rule.get("require", [])
    if "file_name" in wanted and not FILE_NAME.search(header):
        yield 1, "the header comment does not give the file name (such as `%s`)" % _file
    if "name" in wanted and not gives_name(header):
        yield 1, "the header comment does not give a name (such as `Name: A. Student`)"
    if "date" in wanted and not DATE.search(header):
        yield 1, "the header comment does not give a date"


def gives_name(header):
    """Whether a header line gives a name: after a label or `by`, or alone, in any case and
    with an ID, an email, a course or a term around it. Whose name it is, the grader cannot
    know."""
    for line in header.splitlines():
        rest = cleaned(line.strip())
        parts = [part.strip() for part in [rest, rest.replace(",", " ")] + FIELD_SEPARATOR.split(rest)]
        if any(labelled_name(part) for part in parts) or name_after_by(line):
            return True
        # Capitalised words are a name in any field of the line (`Jane Doe, ECS 10`); words in
        # lower case only when nothing else is left on the line (`jane doe (SID 912345678)`),
        # as a phrase of a sentence would pass for one.
        if any(bare_name(part, capitals_only=True) for part in parts):
            return True
        if len([part for part in SPACED_FIELDS.split(rest) if name_text(part)]) == 1 and bare_name(rest) \
                and not ends_a_sentence(line):
            return True
    return False


def labelled_name(text):
    """Whether `text` is a label and a name: after `Name:` (or `-`, `=`), anything in letters
    once what stands around a name is out (`Name: jane doe`, `Author: 李明`; `Name: 42` and
    `Name: (SID 912345678)` are none); after a label alone, a name (`Author Ann Lee`, not
    `name the function`)."""
    label = NAME_LABEL.match(text)
    if not label:
        return False
    value = cleaned(label.group(4))
    if label.group(3) or label.group(1).lower().endswith("by"):
        return bool(re.search(LETTER + "{2}", value))
    return bare_name(value)


def name_after_by(line):
    """Whether `by` comes before a name: a capitalised word or one of a script without case
    (`by Ángel Pérez`, `by 李明`; not `by hand`), or two to four lower-case words none of which
    is a common word (`by jane doe`; not `by the reference`)."""
    found = BY.search(line)
    if not found:
        return False
    first = FIELD_SEPARATOR.split(cleaned(found.group(1)))[0]
    words = []
    for word in first.split():
        word = word.strip(".")
        if not WHOLE_NAME_WORD.match(word) or (word.islower() and word in NOT_NAMES):
            break
        words.append(word)
    if not words:
        return False
    if not words[0].islower():
        return True
    return 2 <= len(words) <= 4 and all(word.islower() for word in words)


def cleaned(text):
    """`text` without what stands around a name: file names, dates, IDs, emails, courses and
    terms. A group in brackets holding a digit or an `@` (`(SID 912345678)`), or a word alone
    (`(jdoe)`), goes; any other becomes a field of its own."""
    text = BRACKETED.sub(lambda group: " " if re.search(r"[\d@]", group.group(1)) or len(group.group(1).split()) < 2
                         else ", %s ," % group.group(1), text)
    return AROUND_NAME.sub(" ", DATE.sub(" ", FILE_NAME.sub(" ", text)))


def ends_a_sentence(line):
    """Whether the line ends as a sentence or a clause does (`reads anything.`), not after an
    initial (`jane q.`)."""
    line = line.strip()
    return line[-1:] in (".", "!", "?", ":") and not re.search(r"(^|\s)" + LETTER + r"\.$", line)


def name_text(text):
    """`text` with its words one space apart and no punctuation around it."""
    return " ".join(text.strip(" \t.,:;!?*=~_#-").split())


def bare_name(text, capitals_only=False):
    """Whether `text` is a name alone: two to four words, none of them a common word, each
    capitalised (`Ann Lee`) or, unless `capitals_only`, in lower case (`jane doe`, `José
    garcía`)."""
    text = name_text(text)
    if not BARE_NAME.match(text):
        return False
    words = text.split()
    if any(word.strip(".").lower() in NOT_NAMES for word in words):
        return False
    if all(capitalised(word) for word in words):
        return True
    # In lower case, or some words capitalised (`José garcía`); a word in capitals beside one
    # in lower case (`port PORT`) is no name.
    return not capitals_only and all(word.islower() or (capitalised(word) and not any(
        letter.isupper() for letter in word[1:])) for word in words)


def capitalised(word):
    """Whether a word starts with an upper-case letter, in any script with case."""
    return word[:1].isupper()


def dotted(node):
    """`a.b.c` of a name or a chain of attributes of a name, else None (walked, not recursed:
    a chain may be longer than the recursion limit)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def no_print(rule, source, tree, _file):
    functions = rule.get("functions", ["*"])
    calls = rule.get("calls", ["print", "input"])
    run = reached(tree, rule.get("asked"))
    for name, function in functions_of(tree):
        if not named(name, functions) or (run is not None and name not in run):
            continue
        for node in walk(function):
            if isinstance(node, ast.Call) and dotted(node.func) in calls:
                yield node.lineno, "function `%s` %s: `%s`" % (name, verb_of(node), snippet(source, node))


def forbidden_imports(rule, _source, tree, _file):
    modules = rule.get("modules", [])

    def forbidden(module):
        return any(module == m or module.startswith(m + ".") for m in modules)

    for node in walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and dotted(node.func) in ("__import__", "importlib.import_module"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        for module in names:
            if forbidden(module):
                yield node.lineno, "forbidden import: `%s`" % module


def exempt_lines(tree, exempt):
    lines = set()
    for name, function in functions_of(tree):
        if named(name, exempt):
            lines |= set(range(function.lineno, (function.end_lineno or function.lineno) + 1))
    return lines


def line_length(rule, source, tree, _file):
    limit = rule.get("max", 80)
    skip = exempt_lines(tree, rule.get("except", []))
    # Lines as Python numbers them: the decoded text ends its lines with "\n" only, and a
    # form feed or U+2028 inside a line is no line break (`splitlines` would make it one).
    for number, line in enumerate(source.split("\n"), 1):
        width = len(line.expandtabs(4))
        if width > limit and number not in skip:
            yield number, "line is %d characters long (at most %d)" % (width, limit)


def naming(rule, _source, tree, _file):
    exempt = rule.get("except", [])
    # Each name that breaks its form, once, at the first line it is given on (whatever
    # order the tree is walked in).
    first_line = {}

    def check(kind, name, line, pattern, form):
        key = (kind, name)
        if not pattern(name) and (key not in first_line or line < first_line[key][0]):
            first_line[key] = (line, "%s name `%s` is not %s" % (kind, name, form))

    def snake(name):
        return SNAKE.match(name) or DUNDER.match(name)

    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            check("class", stmt.name, stmt.lineno, CAP_WORDS.match, "CapWords")
        for target in getattr(stmt, "targets", []) + ([stmt.target] if isinstance(stmt, ast.AnnAssign) else []):
            for node in walk(target):
                if isinstance(node, ast.Name):
                    check("variable", node.id, stmt.lineno, lambda n: snake(n) or UPPER.match(n),
                          "snake_case or UPPER_CASE")
    for name, function in functions_of(tree):
        if named(name, exempt):
            continue
        short = name.split(".")[-1]
        check("function", short, function.lineno, snake, "snake_case")
        args = function.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
            check("parameter", arg.arg, function.lineno, snake, "snake_case")
        for node in walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                check("variable", node.id, node.lineno, snake, "snake_case")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not function:
                check("function", node.name, node.lineno, snake, "snake_case")
    return sorted(first_line.values())


def no_global(_rule, source, tree, _file):
    for node in walk(tree):
        if isinstance(node, ast.Global):
            yield node.lineno, "`global` statement: `%s`" % snippet(source, node)


RULES = {
    "outside_functions": outside_functions,
    "unchanged": unchanged,
    "string_literals": string_literals,
    "required": required,
    "docstrings": docstrings,
    "header_comment": header_comment,
    "no_print": no_print,
    "forbidden_imports": forbidden_imports,
    "line_length": line_length,
    "naming": naming,
    "no_global": no_global,
}


def decoded(raw):
    """The file's text as Python decodes it to run it (as `importlib.util.decode_source`
    does: the encoding `tokenize.detect_encoding` finds, every line end made `\\n`), or the
    exception that says why it does not decode."""
    try:
        text = raw.decode(source_encoding(raw))
        if not isinstance(text, str):
            raise TypeError("the codec gives no text")
    except Exception as error:
        # The cookie and the bytes are the student's: an unknown codec, a byte the codec
        # refuses or a codec that gives no text is a finding, never the grader's error.
        return error
    return text.replace("\r\n", "\n").replace("\r", "\n")


def stdlib_ast():
    """The standard library's `ast`, for the rules that use its helpers."""
    import ast as module

    return module


def reads_as_run(tree, raw, name):
    """Whether `tree`, parsed from the decoded text, is the tree Python's own tokenizer makes
    of the bytes. Python's tokenizer and `tokenize.detect_encoding` can read a coding
    declaration differently (a carriage return before `# coding: utf-7`), and then the
    checks would judge code other than what runs."""
    if b"coding" not in b"\n".join(raw.split(b"\n", 2)[:2]):
        # No declaration where either reader looks for one (a carriage return only cuts
        # those lines shorter): both read UTF-8, so both read the same text.
        return True
    try:
        dump = stdlib_ast().dump
        return dump(parse(raw, name)) == dump(tree)
    except (SyntaxError, ValueError):
        return False


def finding(name, line, message):
    return {"file": name, "line": line, "message": message}


def read(entry):
    """The file as the rules judge it, (source, tree), or the one finding that says why there
    is nothing of it to judge."""
    name = entry["name"]
    if entry.get("unread"):
        # A file the checks cannot see whole may hide what a rule forbids.
        return finding(name, 1, "not read: %s" % entry["unread"])
    # Outside any `try`: a source that is not bytes is the grader's error, not the student's.
    # (Its bytes come as the characters of their values.)
    raw = entry["source"].encode("latin-1")
    source = decoded(raw)
    if isinstance(source, Exception):
        return finding(name, 1, "the file does not read: %s" % source)
    try:
        # A Python 2 program is run as its 2to3 translation: the rules judge that.
        tree, source, python3_error = python3_tree(source, name)
        if python3_error is None and not reads_as_run(tree, raw, name):
            return finding(name, 1, "the file does not read: its encoding declaration "
                           "is read differently by Python's tokenizer")
    except SyntaxError as error:
        return finding(name, error.lineno or 1, "the file does not parse: %s" % (error.msg or "invalid syntax"))
    except MemoryError:
        return finding(name, 1, "the file does not parse: it is too large to parse within the memory limit")
    except (ValueError, RecursionError) as error:
        return finding(name, 1, "the file does not parse: %s" % error)
    if entry["entry"] and not functions_of(tree):
        # Nothing to grade is not good code: a file without a function (an empty or
        # unrelated upload) earns no code-check points.
        return finding(name, 1, "the file defines no function: no code to check")
    return source, tree


def judged(rule, source, tree, name):
    """The rule's (line, message) findings on one file, sorted. Code nested deeper than the
    checker can walk (a chain of a thousand attributes) is the student's: a finding."""
    try:
        return sorted(set(RULES[rule["rule"]](rule, source, tree, name)))
    except RecursionError:
        return [(1, "the code is nested too deeply to be checked")]
    except MemoryError:
        return [(1, "the code is too large to be checked within the memory limit")]


def check_all(rules, files):
    """Each rule's findings on `files`, in the rules' order. A file is read (decoded and
    parsed, twice over) once for all the rules, when a rule first needs it; no rule changes
    the tree it is given."""
    readings = {}
    answers = []
    for rule in rules:
        findings = []
        every_file = rule["rule"] == "forbidden_imports"
        for index, entry in enumerate(files):
            if not (entry["entry"] or every_file):
                continue
            if index not in readings:
                readings[index] = read(entry)
            reading = readings[index]
            if isinstance(reading, dict):
                findings.append(reading)
                continue
            source, tree = reading
            name = entry["name"]
            found = judged(rule, source, tree, name)
            findings += [finding(name, line, message) for line, message in found]
        answers.append(findings)
    return answers


def check(rule, files):
    """One rule's findings on `files`."""
    return check_all([rule], files)[0]


def answer(found, keep):
    """A rule's answer: its first `keep` findings, and how many more there are (a file of a
    hundred thousand badly named variables must not make the answer too large to read)."""
    return {"findings": found[:keep], "more": max(0, len(found) - keep)}


def main():
    request = json_value(sys.stdin.buffer.read().decode("utf-8"))
    keep = request.get("keep", 20)
    answers = [answer(found, keep) for found in check_all(request["rules"], request["files"])]
    sys.stdout.write(json_text({"answers": answers}, ascii=True) + "\n")


if __name__ == "__main__":
    main()
