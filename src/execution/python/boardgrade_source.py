"""How boardgrade reads a Python source file as the interpreter would, shared by the adapters
(which load a student's file) and the probe (which reads every file of a class), so that
both read the same text and tree.

Only the interpreter's C modules are imported: `tokenize` and `ast`, which do this in the
standard library, import a dozen modules more, and starting a process that reads a file is
most of what it costs.
"""

import _ast as ast
import _json
import codecs


def read_source(path):
    """The file's text as Python would read it: the encoding its BOM or coding cookie names
    (a Windows editor's BOM, a `# -*- coding: latin-1 -*-` file), UTF-8 otherwise; a byte
    that does not decode is replaced rather than refused."""
    with open(path, "rb") as handle:
        return decoded(handle.read())


def decoded(raw):
    """The text of a source file's bytes, in the encoding `source_encoding` finds (UTF-8,
    past any BOM, where it finds none it can use); a byte that does not decode is
    replaced."""
    try:
        return raw.decode(source_encoding(raw), errors="replace")
    except (SyntaxError, LookupError):
        return raw.decode("utf-8-sig" if raw.startswith(_BOM) else "utf-8", errors="replace")


_BOM = b"\xef\xbb\xbf"
_NAME_BYTES = frozenset(b"-_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def source_encoding(raw):
    """The encoding Python reads a source file's bytes in (PEP 263, as
    `tokenize.detect_encoding` finds it): a UTF-8 BOM, else a `coding` cookie in a comment on
    the first line, or on the second after a blank or comment line, else UTF-8. A cookie
    naming no codec raises LookupError; one at odds with a BOM, SyntaxError, as Python
    refuses such a file."""
    bom = raw.startswith(_BOM)
    lines = raw[len(_BOM) if bom else 0:].split(b"\n", 2)[:2]
    for line in lines:
        cookie = _cookie(line)
        if cookie is not None:
            name = _normal_name(cookie)
            codecs.lookup(name)
            if bom:
                # Python compares the name as written (normalised), not the codec it names:
                # `utf8` with a BOM is refused.
                if name != "utf-8":
                    raise SyntaxError("encoding problem: %s with BOM" % cookie)
                return "utf-8-sig"
            return name
        stripped = line.lstrip(b" \t\f")
        if stripped and not stripped.startswith((b"#", b"\r")):
            break  # a line of code: no cookie after it
    return "utf-8-sig" if bom else "utf-8"


def _normal_name(cookie):
    """The encoding name as Python's tokenizer normalises it before looking it up: Emacs's
    `utf-8-unix` or `utf-8-with-signature` is `utf-8`, `latin-1-dos` or `iso-latin-1` is
    `iso-8859-1`; any other is left as written."""
    name = cookie[:12].lower().replace("_", "-")
    if name == "utf-8" or name.startswith("utf-8-"):
        return "utf-8"
    latin = ("latin-1", "iso-8859-1", "iso-latin-1")
    if name in latin or name.startswith(tuple(n + "-" for n in latin)):
        return "iso-8859-1"
    return cookie


def _cookie(line):
    """The encoding name of a comment line's `coding:` or `coding=` (the first that names
    one), as the regular expression of PEP 263 reads it; None elsewhere."""
    text = line.lstrip(b" \t\f")
    if not text.startswith(b"#"):
        return None
    at = text.find(b"coding")
    while at != -1:
        rest = text[at + 6:]
        if rest[:1] in (b":", b"="):
            rest = rest[1:].lstrip(b" \t")
            end = 0
            while end < len(rest) and rest[end] in _NAME_BYTES:
                end += 1
            if end:
                return rest[:end].decode("ascii")
        at = text.find(b"coding", at + 1)
    return None


def walk(node):
    """Every node under `node` (itself included), as `ast.walk` gives them, in some order."""
    pending = [node]
    while pending:
        node = pending.pop()
        yield node
        for field in node._fields:
            child = getattr(node, field, None)
            if isinstance(child, list):
                pending.extend(c for c in child if isinstance(c, ast.AST))
            elif isinstance(child, ast.AST):
                pending.append(child)


def parse(source, filename):
    """The syntax tree of `source`, as `ast.parse` gives it."""
    return compile(source, filename, "exec", ast.PyCF_ONLY_AST)


def python3_tree(source, filename):
    """The syntax tree of `source` (see `parse`), the text it was read from, and None; for a
    Python 2 program, those of its 2to3 translation (see `python2_translated`) and the
    SyntaxError Python 3 gives on the program. A source that is neither raises its own
    SyntaxError."""
    try:
        return parse(source, filename), source, None
    except SyntaxError as error:
        translated = python2_translated(source)
        if translated is None:
            raise
        return parse(translated, filename), translated, error


# 2to3's translator, made once (reading its grammar is most of what loading it costs), and
# each source it translated, by its text: a loaded runner translates a Python 2 program once,
# before its copies are taken, and each scenario's launcher finds the translation here.
_TRANSLATOR = []
_TRANSLATED = {}


def python2_translated(source):
    """`source` translated to Python 3 by 2to3 (`lib2to3`, every fixer: `print` statements,
    `raw_input`, `xrange`, `except E, e`, `dict.has_key`...) when it is a Python 2 program:
    it does not compile as Python 3 and its translation does. None otherwise, and where the
    interpreter has no `lib2to3` (Python 3.13 and later). Division is Python 2's: `7 / 2`
    is 3 (see `classic_division`), unless the program imports `division` from `__future__`.
    Call it only on a source that did not compile: importing 2to3 and reading its grammar
    takes a tenth of a second (once per process), a translation about 10 ms (once per
    source)."""
    if source not in _TRANSLATED:
        _TRANSLATED[source] = _translation(source)
    if _TRANSLATED[source] is not None:
        import builtins

        # Where the translation runs, its divisions find their function (a program and
        # the modules it imports share builtins; no line is added to its text).
        setattr(builtins, CLASSIC_DIVISION, classic_division)
    return _TRANSLATED[source]


# The name a Python 2 program's divisions call once translated (see `classic_division`).
CLASSIC_DIVISION = "__boardgrade_classic_division__"


def classic_division(x, y):
    """`x / y` as Python 2 computed it: the floor of the quotient of two integers, the true
    quotient otherwise. A Python 2 program's `len(board) / 2` is an index."""
    if isinstance(x, int) and isinstance(y, int):
        return x // y
    return x / y


def _translator():
    """2to3's translator with every fixer of `lib2to3`, and one more that makes each `/` and
    `/=` call `classic_division`. Raises ImportError where there is no `lib2to3`."""
    from lib2to3 import fixer_base, pytree, refactor
    from lib2to3.fixer_util import Call, Comma, Name, does_tree_import
    from lib2to3.pgen2 import token

    class FixClassicDivision(fixer_base.BaseFix):
        PATTERN = "term< any+ > | expr_stmt< any '/=' any >"

        def start_tree(self, tree, filename):
            super().start_tree(tree, filename)
            self.true_division = does_tree_import("__future__", "division", tree)

        def transform(self, node, results):
            if self.true_division:
                return None
            if node.type != self.syms.term:
                target, operator, value = node.children
                quotient = divided(target.clone(), operator, value.clone(), value.prefix)
                return pytree.Node(self.syms.expr_stmt, [
                    target.clone(), pytree.Leaf(token.EQUAL, "=", prefix=operator.prefix), quotient])
            if not any(child.type == token.SLASH for child in node.children[1::2]):
                return None
            # `a * b / c % d` is ((a * b) / c) % d: rebuilt left to right, each `/` a call.
            left = node.children[0].clone()
            rest = node.children[1:]
            for operator, right in zip(rest[::2], rest[1::2]):
                if operator.type == token.SLASH:
                    left = divided(left, operator, right.clone(), left.prefix)
                else:
                    left = pytree.Node(self.syms.term, [left, operator.clone(), right.clone()])
            return left

    def divided(left, operator, right, prefix):
        # The call takes the place of its left operand, with the spacing before it, and a
        # line break before the operator stays before the comma: no line of the program moves.
        left.prefix = ""
        comma = Comma()
        comma.prefix = operator.prefix if "\n" in operator.prefix else ""
        return Call(Name(CLASSIC_DIVISION), [left, comma, right], prefix=prefix)

    class Translator(refactor.RefactoringTool):
        def get_fixers(self):
            pre_order, post_order = super().get_fixers()
            return pre_order, post_order + [FixClassicDivision(self.options, self.fixer_log)]

    return Translator(refactor.get_fixers_from_package("lib2to3.fixes"))


def _translation(source):
    import warnings

    with warnings.catch_warnings():
        # 2to3 says it is deprecated, on every import and every grammar it reads.
        warnings.simplefilter("ignore")
        try:
            if not _TRANSLATOR:
                _TRANSLATOR.append(_translator())
            text = str(_TRANSLATOR[0].refactor_string(source if source.endswith("\n") else source + "\n",
                                                      "<submission>"))
            compile(text, "<submission>", "exec", dont_inherit=True)
        except Exception:
            # No lib2to3, or not Python 2 either (2to3's parse error, a translation that
            # does not compile): the source stays as it is, and its own error stands.
            return None
    return text


class _JsonReading(object):
    """What the C scanner of `_json` asks of the decoder it scans for: `json.loads`'s own
    defaults (strict strings, Python's numbers, no hooks)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float


def translate_imports_from(folder):
    """Makes the modules of `folder` (a Python 2 submission's own helpers) import as their
    2to3 translation where they are Python 2 (see `python2_translated`); the others import
    as they would."""
    import sys
    from importlib import machinery

    class Python2Loader(machinery.SourceFileLoader):
        def source_to_code(self, data, path, *args, **kwargs):
            try:
                return compile(data, path, "exec", dont_inherit=True)
            except SyntaxError:
                translated = python2_translated(decoded(data))
                if translated is None:
                    raise
                return compile(translated, path, "exec", dont_inherit=True)

    sys.path_importer_cache[folder] = machinery.FileFinder(
        folder,
        (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
        (Python2Loader, machinery.SOURCE_SUFFIXES),
        (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES),
    )


def json_value(text):
    """The value of the JSON document `text`, read by the C scanner `json` uses (importing
    `json` costs more than reading a request). A ValueError where `text` is not one JSON
    value."""
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        value, end = _json.make_scanner(_JsonReading())(text, start)
    except StopIteration:
        value, end = None, -1
    if end < 0:
        raise ValueError("no JSON value at character %d" % start)
    if text[end:].strip(" \t\n\r"):
        raise ValueError("more than one JSON value (at character %d)" % end)
    return value


def json_text(value, ascii=False):
    """`value` (dicts with text keys, lists, tuples, text, integers, booleans, None) as one
    line of JSON, written with the C encoder `json` uses: importing `json` (and so `re`)
    costs more than starting the interpreter. `ascii` escapes every other character (a
    path's undecodable bytes included), as `ensure_ascii` does."""
    text = _json.encode_basestring_ascii if ascii else _json.encode_basestring
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return text(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s: %s" % (text(key), json_text(item, ascii))
                                  for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return "[%s]" % ", ".join(json_text(item, ascii) for item in value)
    raise TypeError("no JSON for %r" % type(value).__name__)
