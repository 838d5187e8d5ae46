"""boardgrade's loaded runner: one interpreter per submission loads the harness (and, for a
call protocol, the student's module) once; each scenario's process is then a copy of that
state, made by the grader.

    python -B boardgrade_fork.py adapter ADAPTER ENTRY    as `python -B ADAPTER ENTRY` would
    python -B boardgrade_fork.py program STUBS ENTRY      as `boardgrade_launch.py STUBS ENTRY`

Its stdin is a control socket (SOCK_SEQPACKET) to the grader. It says `hello` before any
student code runs and waits for `on`, which carries the read end of the gate, a pipe only the
grader can write (the grader notes meanwhile what the runner holds). Once the adapter
reaches `serve()` it says `loaded` (or `fallback REASON` when the submission cannot be
served this way: its import reads stdin, forks, starts a thread, or does not load), blocks
every signal and reads the gate, and never runs again: no Python runs in the runner after
the import, so nothing the import left there (a hook, a patched builtin, a trace function)
can run between scenarios or count them.

The grader makes each scenario's process from outside (ptrace: a `clone` done by the
blocked runner, whose copy returns from the read with nothing read). That copy takes its
`run` message from the control socket: the scenario's stdin, stdout and stderr, and a
socket on which it says `ready` (the kernel attaches its pid) and waits for `go` while the
grader applies its limits and cgroup. Then the scenario runs in that process exactly as in
a fresh interpreter, starting with what the import wrote to stderr.

The grader trusts nothing this file or the submission says after `hello`: it learns the
process from the kernel, checks before each copy that the runner is still blocked on the
gate with every signal blocked and one thread, keeps every limit, kill and exit status in
its own hands, and falls back to a fresh process per scenario whenever anything is amiss.
"""

import os
import resource
import sys
import _signal
import _socket

_READY, _GO, _RUN, _ON = b"ready", b"go", b"run", b"on"
_FDS_PER_RUN = 4
# What a scenario's process runs before the scenario's own code is taken now, before the
# import can replace it (a patched builtin would otherwise run there, unlike in a fresh
# process).
_len, _int, _range, _zip, _from_bytes = len, int, range, zip, int.from_bytes
_BYTEORDER = sys.byteorder
_ROOM = _socket.CMSG_SPACE(_FDS_PER_RUN * 4)
_SOL_SOCKET, _SCM_RIGHTS = _socket.SOL_SOCKET, _socket.SCM_RIGHTS
# The limits a `run` message names, in its order.
_LIMITS = (resource.RLIMIT_CORE, resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_FSIZE,
           resource.RLIMIT_NPROC)


_PR_SET_DUMPABLE = 4


def _prctl():
    """prctl(2) through ctypes, or None where ctypes is missing."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except Exception:
        return None


class _ReadsStdin(BaseException):
    """Raised where the import reads stdin (a BaseException, so `except Exception` of the
    student's code does not hide it)."""


class _StdinAtImport(object):
    """sys.stdin while the submission is imported: any read is noted (and fails), since a
    fresh process would read the scenario's first line there."""

    def __init__(self, runner):
        self._runner = runner

    def isatty(self):
        return False

    def __getattr__(self, name):
        if name in ("encoding", "errors", "name", "mode", "closed", "newlines"):
            return getattr(sys.__stdin__, name)
        self._runner.reads_stdin = True
        raise _ReadsStdin("stdin is read at import time")

    def __iter__(self):
        self._runner.reads_stdin = True
        raise _ReadsStdin("stdin is read at import time")


class _SeedWatch(object):
    """Whether the import seeds `random` itself (`random.seed(7)`, `random.setstate`). A
    fresh process then starts every scenario from the state that seed gives, so a copy keeps
    the runner's; otherwise a fresh process's state comes from the system's entropy, and
    each copy is seeded again, as a fresh interpreter would be. `random` is watched from its
    import (a finder ahead of the others), or at once where it is already imported."""

    def __init__(self):
        self.seeded = False
        self._module = None
        self._originals = None
        self._seeding = self._setting = None
        # The generators the import made or seeded from the system's entropy
        # (`random.Random()`), by id: a fresh process starts each from entropy of its own.
        self._entropy = {}
        self._class = self._class_originals = self._class_wrappers = None

    def watch(self):
        module = sys.modules.get("random")
        if module is not None:
            self._wrap(module)
        else:
            sys.meta_path.insert(0, self)

    def unwatch(self):
        """Takes the watch away once the import is over: the scenarios see `random` as a
        fresh process does."""
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        if self._module is not None:
            seed, setstate = self._originals
            if getattr(self._module, "seed", None) is self._seeding:
                self._module.seed = seed
            if getattr(self._module, "setstate", None) is self._setting:
                self._module.setstate = setstate
        if self._class is not None:
            for name, original, wrapper in zip(("seed", "setstate"), self._class_originals,
                                               self._class_wrappers):
                if self._class.__dict__.get(name) is wrapper:
                    setattr(self._class, name, original)

    def seed_as_fresh(self):
        """In a copy: seeds `random` from the system's entropy, as a fresh interpreter's
        import of it does, unless the import seeded it itself. The seed called is the
        module's own, never one the import put in its place."""
        for generator in list(self._entropy.values()):
            generator = generator()
            if generator is not None:
                self._class_originals[0](generator)
        module = sys.modules.get("random")
        if module is None or self.seeded:
            return
        seed = self._originals[0] if module is self._module else module.seed
        seed()

    def find_spec(self, name, path=None, target=None):
        if name != "random" or self._module is not None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _WatchedLoader(spec.loader, self)
                return spec
        return None

    def _wrap(self, module):
        self._module = module
        self._originals = seed, setstate = module.seed, module.setstate
        watch = self

        def seeding(*args, **kwargs):
            if (args and args[0] is not None) or kwargs.get("a") is not None:
                watch.seeded = True
            return seed(*args, **kwargs)

        def setting(state):
            watch.seeded = True
            return setstate(state)

        self._seeding, self._setting = seeding, setting
        module.seed, module.setstate = seeding, setting
        self._watch_generators(module)

    def _watch_generators(self, module):
        """Notes each `random.Random` (or subclass) the import seeds: from entropy (made
        with no seed, or `seed()`), to be seeded again in each copy; with a value, or given
        a state, to keep what it has, as in a fresh process."""
        cls = getattr(module, "Random", None)
        if not isinstance(cls, type) or "seed" not in cls.__dict__:
            return
        import weakref

        entropy = self._entropy
        seed, setstate = cls.__dict__["seed"], cls.__dict__.get("setstate")

        def noted(generator):
            try:
                return weakref.ref(generator)
            except TypeError:  # a subclass with __slots__: kept, as the import keeps it
                return lambda: generator

        def seeding(generator, a=None, *args, **kwargs):
            if a is None:
                entropy[id(generator)] = noted(generator)
            else:
                entropy.pop(id(generator), None)
            return seed(generator, a, *args, **kwargs)

        def setting(generator, state):
            entropy.pop(id(generator), None)
            return setstate(generator, state)

        self._class = cls
        self._class_originals = (seed, setstate)
        self._class_wrappers = (seeding, setting)
        cls.seed = seeding
        if setstate is not None:
            cls.setstate = setting


class _WatchedLoader(object):
    """The loader of `random`, which hands the module to the watch once it is run."""

    def __init__(self, loader, watch):
        self._loader, self._watch = loader, watch

    def create_module(self, spec):
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._watch._wrap(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class Runner(object):
    def __init__(self):
        # Everything the runner needs is taken before student code can replace it.
        self._fork, self._setsid, self._dup2, self._close = os.fork, os.setsid, os.dup2, os.close
        self._write, self._read, self._exit = os.write, os.read, os._exit
        self._getpid = os.getpid
        self._sigmask = _signal.pthread_sigmask
        self._setrlimit = resource.setrlimit
        self._control = _socket.socket(fileno=os.dup(0))
        self._send = self._control.send
        self._recvmsg = self._control.recvmsg
        self.reads_stdin = False
        self.forks = False
        self.in_scenario = False
        self._pid = os.getpid()
        self._import_output = b""
        self._prctl = _prctl()
        # While loading: stdin never delivers (a raw read blocks, the grader's wait for
        # `loaded` ends it), sys.stdin notes any read, and what is printed is kept. All the
        # runner holds is made before `hello`: the grader notes it then, and anything the
        # import adds (a file kept open, a shared mapping, a signal handler) makes it grade
        # the submission with fresh processes.
        self._never_read, self._never_written = os.pipe()
        self._capture = os.memfd_create("boardgrade-import")
        self._send(b"hello")
        message, fds = self._receive()
        if message != _ON or len(fds) != 1:
            self._exit(0)
        self._gate = fds[0]
        if self._prctl is None:
            self.fallback("the runner cannot keep its scenarios from tracing it (no ctypes)")
        self._dup2(self._never_read, 0)
        self._dup2(self._capture, 1)
        self._dup2(self._capture, 2)
        sys.stdin = _StdinAtImport(self)
        self._seeds = _SeedWatch()
        self._seeds.watch()
        os.fork = self._noting_fork

    def _receive(self):
        """The next message on the control socket, and the descriptors it carries."""
        while True:
            try:
                message, ancillary, _, _ = self._recvmsg(512, _ROOM)
                break
            except InterruptedError:
                continue
        fds = []
        for level, kind, data in ancillary:
            if level == _SOL_SOCKET and kind == _SCM_RIGHTS:
                fds += [_from_bytes(data[i:i + 4], _BYTEORDER)
                        for i in _range(0, _len(data) - _len(data) % 4, 4)]
        return message, fds

    def _noting_fork(self):
        """os.fork while the submission is imported: noted, since a fresh process would
        fork in every scenario."""
        self.forks = True
        return self._fork()

    def _finish_loading(self):
        """What the import printed (to replay in each scenario), and why it cannot be
        forked from, if it cannot."""
        if os.getpid() != self._pid:
            self._exit(0)  # a process the import forked: only the runner serves
        if os.fork == self._noting_fork:
            os.fork = self._fork
        self._seeds.unwatch()
        # Descriptors 0 to 2 as the import began: an import may close or replace them
        # (`os.close(1)`). A fresh process claims its protocol's descriptors before the
        # import, so nothing it does to them reaches the protocol; here a scenario's own
        # descriptors arrive later, and would land in a gap the import left and be closed
        # with the runner's.
        try:
            for fd, target in ((self._never_read, 0), (self._capture, 1), (self._capture, 2)):
                self._dup2(fd, target)
        except OSError:
            return "its import closes the runner's own files"
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except Exception:
                pass
        os.lseek(self._capture, 0, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(self._capture, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        self._import_output = b"".join(chunks)
        if self.reads_stdin:
            return "its import reads stdin"
        if self.forks:
            return "its import starts a process"
        tasks = os.listdir("/proc/self/task")
        if len(tasks) > 1:
            return "its import starts a thread"
        for task in tasks:
            with open("/proc/self/task/%s/children" % task) as children:
                if children.read().strip():
                    return "its import starts a process"
        return None

    def fallback(self, reason):
        """Tells the grader this submission needs a fresh process per scenario, and ends."""
        try:
            self._send(("fallback " + reason).encode("utf-8", "replace"))
        finally:
            self._exit(0)

    def become_scenario(self):
        """Reports the runner loaded, then waits to be copied; returns only in a copy, a
        scenario's own process, set up as a fresh interpreter's would be."""
        reason = self._finish_loading()
        if reason is not None:
            self.fallback(reason)
        # What the import made is kept out of the collector's sight: a collection in a
        # scenario's process would otherwise walk (and so copy) every page of it.
        # The module is built in: taken out of sys.modules again when the program had not
        # imported it, the program sees the modules a fresh interpreter would have.
        had_gc = "gc" in sys.modules
        import gc

        if hasattr(gc, "freeze"):
            gc.freeze()
        if not had_gc:
            sys.modules.pop("gc", None)
        self._send(b"loaded")
        # Not dumpable once the grader has looked at it: the scenarios' processes run as the
        # same user, and must neither trace the runner nor read its /proc files. Each
        # scenario's process is made dumpable again, as a fresh one is.
        self._prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        # From here on no Python runs in the runner: every signal is blocked (a handler
        # would run), and the gate is never written. The grader copies the runner while it
        # waits here; only a copy returns, with nothing read.
        mask = self._sigmask(_signal.SIG_BLOCK, _signal.valid_signals())
        while True:
            read = self._read(self._gate, 1)
            if self._getpid() != self._pid:
                break
            if not read:
                self._exit(0)  # the grader closed the gate: it needs the runner no more
        message, fds = self._receive()
        words = message.split()
        if words[:1] != [_RUN] or _len(words) != 1 + _len(_LIMITS) or _len(fds) != _FDS_PER_RUN:
            self._exit(111)
        self._enter(fds, words[1:], mask)

    def _enter(self, fds, limits, mask):
        stdin, stdout, stderr, handshake = fds
        self.in_scenario = True
        self._setsid()
        # No death signal with the runner: a scenario that kills its runner lives on, as a
        # fresh process would (its cgroup and user are killed at the scenario's end).
        self._prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
        for kind, value in _zip(_LIMITS, limits):
            if value != b"-":
                soft, hard = value.split(b":")
                self._setrlimit(kind, (_int(soft), _int(hard)))
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            self._dup2(fd, target)
        for fd in (stdin, stdout, stderr, self._never_read, self._never_written, self._capture,
                   self._gate):
            self._close(fd)
        self._control.close()
        ready = _socket.socket(fileno=handshake)
        ready.send(_READY)
        if ready.recv(8) != _GO:
            self._exit(111)
        ready.close()
        self._sigmask(_signal.SIG_SETMASK, mask)  # as the grader started it
        sys.stdin = sys.__stdin__
        sys.excepthook = _as_if_fresh(sys.excepthook)
        self._seeds.seed_as_fresh()
        output, written = self._import_output, 0
        while written < _len(output):
            written += self._write(2, output[written:])


_OWN_FILES = [os.path.abspath(__file__)]
"""The files of the runner's own frames, left out of a traceback (with `runpy`'s once it is
imported to run a program)."""


def _as_if_fresh(hook):
    """An excepthook that leaves out the runner's own frames, so an uncaught error reads as
    it would in a fresh interpreter running the script."""
    own = tuple(_OWN_FILES)

    def strip(kind, value, tb):
        while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename in own:
            tb = tb.tb_next
        if isinstance(value, BaseException):
            value.__traceback__ = tb  # what the default hook prints
        hook(kind, value, tb)

    return strip


def _run_as_main(path):
    """Runs the script at `path` as `python path` runs it, as `runpy.run_path` does (whose
    import, with `pkgutil`'s, costs a fresh interpreter's start over again): as the module
    `__main__`, put back when it returns."""
    with open(path, "rb") as handle:
        code = compile(handle.read(), path, "exec", dont_inherit=True)
    main = type(sys)("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __loader__=None, __package__=None,
                         __spec__=None, __builtins__=sys.modules["builtins"])
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        sys.modules["__main__"] = saved


def _adapter(runner, adapter, entry):
    import boardgrade_adapter

    boardgrade_adapter._fork_runner = runner
    sys.argv = [adapter, entry]
    try:
        _run_as_main(adapter)
    except _ReadsStdin:
        if runner.in_scenario:
            raise
        runner.fallback("its import reads stdin")
    except BaseException:
        if runner.in_scenario:
            raise
        runner.fallback("it does not load")
    if not runner.in_scenario:
        runner.fallback("it does not load")


def _translate_once(entry):
    """Translates `entry` here, once, where it is a Python 2 program (it does not compile):
    each scenario's launcher translates it (`boardgrade_launch.run_program`), and finds the
    translation made (`boardgrade_source.python2_translated` keeps it) instead of loading
    2to3 and translating again, scenario after scenario. A fresh process does the same before
    the program's first line. Nothing of the program runs here."""
    try:
        with open(entry, "rb") as handle:
            raw = handle.read()
        compile(raw, entry, "exec", dont_inherit=True)
        return
    except SyntaxError:
        pass
    except Exception:
        return  # no program to read, or one that does not compile either way: left as it is
    # From the harness's folder, the runner's own (as `boardgrade_adapter` is imported).
    import boardgrade_source

    boardgrade_source.python2_translated(boardgrade_source.decoded(raw))


def _program(runner, stubs, entry):
    import runpy

    # What runpy imports to run a path (pkgutil brings typing, re and enum): a fresh process
    # imports it before the program's first line too, so loading it here changes nothing the
    # program can see, and saves every scenario the time.
    import pkgutil  # noqa: F401

    _OWN_FILES.extend((getattr(runpy, "__file__", None) or "<frozen runpy>", "<frozen runpy>"))
    _translate_once(entry)

    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boardgrade_launch.py")
    runner.become_scenario()
    sys.argv = [launcher, stubs, entry]
    runpy.run_path(launcher, run_name="__main__")


def _exit_status(exit):
    """The status a fresh interpreter ends with on SystemExit `exit` (printing a non-integer
    code, as it does)."""
    code = exit.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write("%s\n" % (code,))
    except Exception:
        pass
    return 1


def _end_scenario(status):
    """Ends a scenario's process as a fresh interpreter ends, without its slow part: non-daemon
    threads are waited for, exit functions run and the standard streams are flushed (a
    failed flush of stdout makes the status 120, as in CPython); then the process exits
    without tearing down the interpreter's modules, which only costs time."""
    threading = sys.modules.get("threading")
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        try:
            shutdown()
        except BaseException:
            pass
    try:
        import atexit

        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.__stdout__):
        try:
            stream.flush()
        except BaseException:
            if status == 0:
                status = 120
    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:
            pass
    os._exit(status)


def main():
    runner = Runner()
    mode, first, entry = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    try:
        if mode == "adapter":
            _adapter(runner, first, entry)
        else:
            _program(runner, first, entry)
    except SystemExit as exit:
        if not runner.in_scenario:
            raise
        _end_scenario(_exit_status(exit))
    except BaseException:
        if not runner.in_scenario:
            raise
        sys.excepthook(*sys.exc_info())
        _end_scenario(1)
    if runner.in_scenario:
        _end_scenario(0)


if __name__ == "__main__":
    main()
