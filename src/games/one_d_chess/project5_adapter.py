"""boardgrade adapter for one-d-chess/project5 (seed 000): serves the call protocol of
specs/one-d-chess/PROTOCOL.md on a student's one_d_chess.py."""

import sys

from boardgrade_adapter import NOTHING, call, load_submission, serve

START = ["WKi", "WKn", "WKn", "EMPTY", "EMPTY", "EMPTY", "BKn", "BKn", "BKi"]

student = load_submission(sys.argv[1])
session = {"board": list(START)}


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
    "create_board": create_board,
    "printable_board": printable_board,
    "is_valid_move": is_valid_move,
    "move": mover("move"),
    "move_king": mover("move_king"),
    "move_knight": mover("move_knight"),
    "is_game_over": is_game_over,
    "board": board,
})
