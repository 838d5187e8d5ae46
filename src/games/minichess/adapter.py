"""boardgrade adapter for minichess (seed 003 and the older hexapawn course): serves the call
protocol of specs/minichess/PROTOCOL.md on a student's file.

A command is a function name and its arguments as JSON values, in the order the function
takes them (`move_maker [[0,1,1],[1,0,0],[2,2,2]] 2`). The response is framed by the
shared core: what the call printed (`:` lines), the return value as Python prints it (`=`),
and, when a call changed a board it was given, `!changed-input BOARD`, the board as the call
left it. A value holding tuples where the handout has lists (a tuple of tuples for a board)
is answered as lists, so its boards are judged on their content, with `!tuples VALUE`, the
value as returned, for the scenarios that judge the form. boardgrade appends the line that
names the dialect's functions.
"""

import copy
import json
import random
import sys

from boardgrade_adapter import Answer, call, load_submission, serve

# A submission that picks at random plays the same games on every run.
random.seed(0)

_decoder = json.JSONDecoder()
_student = None


def _arguments(text):
    """The JSON values of `text`, in order."""
    values = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        value, at = _decoder.raw_decode(text, at)
        values.append(value)


def _is_board(value):
    """A list of lists of integers: a board, as opposed to a list of boards or a color."""
    return (isinstance(value, list) and len(value) > 0
            and all(isinstance(row, list) for row in value)
            and all(isinstance(cell, int) for row in value for cell in row))


# The levels of an answer that hold boards: a list of boards, a board, its rows.
_BOARD_LEVELS = 3


def _listed(value, levels=_BOARD_LEVELS):
    """`value` with the tuples of its first `levels` levels made lists, and whether it held
    one: `((0, 1), (2, 0))` is the board `[[0, 1], [2, 0]]` in another sequence."""
    if levels == 0 or not isinstance(value, (list, tuple)):
        return value, False
    items = [_listed(item, levels - 1) for item in value]
    held = isinstance(value, tuple) or any(tupled for _, tupled in items)
    return [item for item, _ in items], held


def _command(function):
    def run(*words):
        args = _arguments(" ".join(words))
        given = [(arg, copy.deepcopy(arg)) for arg in args if _is_board(arg)]
        returned = call(_student, function, *args)
        listed, tupled = _listed(returned)
        tags = [("changed-input", repr(board)) for board, before in given if board != before]
        if tupled:
            tags.append(("tuples", repr(returned)))
            returned = listed
        return Answer(repr(returned), tags)
    return run


def serve_functions(*names):
    """Loads the submission named on the command line and serves `names`."""
    global _student
    _student = load_submission(sys.argv[1])
    serve({name: _command(name) for name in names})
