"""boardgrade adapter for pown-chess/pown-functions (seed 002): calls the required functions
of a student's whole pown-chess.py one by one (specs/pown-chess/PROTOCOL.md).

The file's definitions and its `game_board` load; its game loop does not run. `set_board`
rewrites that dictionary in place as the handout keys it (`game_board['A1']` is '', 'w' or
'b'; an empty square as the file's own board holds it, ' ' where it keeps ' '), so the
functions, which read it, see the position.

A program that fills its board when its game starts (at the top of a `main()` that then
plays) leaves `game_board` empty here, where `main()` does not run: the board starts as the
handout's starting position, keyed as the handout keys it, as the program's own start would
have filled it. A board the file fills itself is left as it is.
"""

import sys

from boardgrade_adapter import NOTHING, call, load_submission, serve

COLS = "ABCDEFGH"
CELLS = {".": "", "w": "w", "b": "b"}
START = ["w" * 8] + ["." * 8] * 6 + ["b" * 8]


def fill(board, rows, empty=""):
    """Sets each of the 64 squares of `board` from eight rows of w, b and . (row 1 first), an
    empty square as `empty`."""
    for number, row in enumerate(rows, start=1):
        for col, cell in zip(COLS, row):
            board[col + str(number)] = CELLS[cell] or empty


def own_empty(board):
    """What the file's own board holds on an empty square: the handout's hint says '', and a
    program that keeps ' ' (or '.') there prints and reads its squares that way. The most
    common text that is not a pown; '' where there is none."""
    counts = {}
    for value in board.values() if isinstance(board, dict) else ():
        if isinstance(value, str) and value not in ("w", "b") and len(value) <= 3:
            counts[value] = counts.get(value, 0) + 1
    return max(sorted(counts), key=counts.get) if counts else ""


def start_unfilled(student):
    """The handout's starting position in a `game_board` the file left empty."""
    board = getattr(student, "game_board", None)
    if isinstance(board, dict) and not board:
        fill(board, START)


def main():
    """Loads the submission named on the command line and serves its functions."""
    student = load_submission(sys.argv[1])
    start_unfilled(student)
    empty = own_empty(getattr(student, "game_board", None))

    def set_board(*rows):
        """Set-up: `game_board` becomes this position (row 1 first); no student code runs."""
        board = getattr(student, "game_board", None)
        if not isinstance(board, dict):
            raise TypeError("game_board is not a dictionary (the handout asks for one)")
        if len(rows) != 8 or any(len(row) != 8 for row in rows):
            raise ValueError("set_board takes 8 rows of 8 cells")
        strange = [cell for row in rows for cell in row if cell not in CELLS]
        if strange:
            raise ValueError("a cell is w, b or ., got %r" % strange[0])
        fill(board, rows, empty)
        return NOTHING

    def display_board():
        call(student, "display_board")
        return NOTHING

    def moves_remaining(color):
        return repr(call(student, "moves_remaining", color))

    serve({
        "set_board": set_board,
        "display_board": display_board,
        "moves_remaining": moves_remaining,
    })


if __name__ == "__main__":
    main()
