"""boardgrade adapter for one-d-chess/project5 (seed 000): serves the call protocol of
specs/one-d-chess/PROTOCOL.md on a student's one_d_chess.py."""

import sys

from boardgrade_adapter import NOTHING, call, load_submission, serve

START = ["WKi", "WKn", "WKn", "EMPTY", "EMPTY", "EMPTY", "BKn", "BKn", "BKi"]

student = load_submission(sys.argv[1])
session = {"board": list(START)}


CELLS = ("WKi", "WKn", "BKi", "BKn", "EMPTY")


def set_board(*cells):
    """Set-up: the session board becomes this list; no student code runs."""
    if len(cells) != len(START):
        raise ValueError("set_board takes %d cells, got %d" % (len(START), len(cells)))
    for cell in cells:
        if cell not in CELLS:
            raise ValueError("a cell is WKi, WKn, BKi, BKn or EMPTY, got %r" % cell)
    session["board"] = list(cells)
    return NOTHING


def create_board():
    result = call(student, "create_board")
    if isinstance(result, list):
        session["board"] = result
    return repr(result)


def printable_board():
    result = call(student, "printable_board", session["board"])
    return result if isinstance(result, str) else repr(result)


def is_valid_move(position, player):
    return repr(call(student, "is_valid_move", session["board"], int(position), player))


def mover(function):
    def command(position, direction):
        call(student, function, session["board"], int(position), direction)
        return NOTHING
    return command


def is_game_over():
    return repr(call(student, "is_game_over", session["board"]))


def board():
    return repr(session["board"])


serve({
    "set_board": set_board,
    "create_board": create_board,
    "printable_board": printable_board,
    "is_valid_move": is_valid_move,
    "move": mover("move"),
    "move_king": mover("move_king"),
    "move_knight": mover("move_knight"),
    "is_game_over": is_game_over,
    "board": board,
})
