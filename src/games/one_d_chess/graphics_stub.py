"""Stand-in for the course's graphics module: every drawing call does nothing."""

# What `from graphics import *` brings: the course module's names (a module `__getattr__`
# alone would answer `__all__` with a class, which that import cannot iterate).
__all__ = ["graphics", "canvas"]


class _DrawsNothing:
    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


graphics = _DrawsNothing
canvas = _DrawsNothing


def __getattr__(name):
    # Python asks a module for dunder names (`__path__`, `__all__`): only drawing names are
    # stand-ins.
    if name.startswith("__"):
        raise AttributeError(name)
    return _DrawsNothing
