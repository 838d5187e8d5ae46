"""Unit tests of the Python that boardgrade embeds in its binary, run without the binary.

The scripts are imported from `src/` (their pure helpers: framing, parsing, loading a
submission) or started as boardgrade lays them out (`harness/boardgrade_adapter.py` beside
`harness/adapter_DIALECT.py`, the dialect's last line appended) with the interpreter running
the tests, so each Python version the tests run under is checked for real.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "src")
CORE_DIR = os.path.join(SRC, "execution", "python")

# The game adapters import the shared core by name, as they do beside it in a harness folder.
if CORE_DIR not in sys.path:
    sys.path.insert(0, CORE_DIR)


def source_of(relative):
    """The text of an embedded script, by its path under `src/`."""
    with open(os.path.join(SRC, relative), encoding="utf-8") as handle:
        return handle.read()


def load_script(relative, name):
    """Imports an embedded script under `name` (its main guard keeps its program from
    running)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(SRC, relative))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lay_out(folder, *relatives):
    """Writes the embedded scripts at `relatives` (paths under `src/`) into `folder`, as
    boardgrade lays them out side by side; gives the path of the first."""
    os.makedirs(str(folder), exist_ok=True)
    paths = []
    for relative in relatives:
        path = os.path.join(str(folder), os.path.basename(relative))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source_of(relative))
        paths.append(path)
    return paths[0]


def interface_call(function, json_file):
    """The last line boardgrade appends to a game adapter: `function(<the dialect's JSON>)`."""
    with open(os.path.join(SRC, json_file), encoding="utf-8") as handle:
        return "\n%s(%s)\n" % (function, json.dumps(json.load(handle)))


class Served(object):
    """One adapter session: its framed responses, one list of lines per command, and its
    stderr."""

    def __init__(self, completed):
        self.status = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.responses = []
        current = []
        for line in completed.stdout.split("\n")[:-1]:
            current.append(line)
            if line == ".":
                self.responses.append(current)
                current = []
        self.unframed = current


@pytest.fixture
def serve_adapter(tmp_path):
    """Starts an adapter script on a submission as boardgrade does and feeds it commands:
    `serve_adapter(script_text, entry_path, ["cmd arg", ...], env={...})`."""

    def run(script, entry, commands, env=None):
        harness = tmp_path / "harness"
        lay_out(harness, "execution/python/boardgrade_adapter.py", "execution/python/boardgrade_source.py")
        adapter = harness / "adapter_under_test.py"
        adapter.write_text(script, encoding="utf-8")
        environment = {key: value for key, value in os.environ.items() if not key.startswith("BOARDGRADE_")}
        environment.update({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"})
        environment.update(env or {})
        completed = subprocess.run(
            [sys.executable, "-B", str(adapter), str(entry)],
            input="".join(command + "\n" for command in commands),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            cwd=str(os.path.dirname(str(entry))),
            env=environment,
            timeout=60,
        )
        return Served(completed)

    return run
