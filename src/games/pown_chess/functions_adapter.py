"""boardgrade adapter for pown-chess/pown-functions (seed 002): calls the required functions
of a student's whole pown-chess.py one by one (specs/pown-chess/PROTOCOL.md).

The file's definitions and its `game_board` load; its game loop does not run. `set_board`
rewrites that dictionary in place as the handout keys it (`game_board['A1']` is '', 'w' or
'b'), so the functions, which read it, see the position.
"""

import sys

from boardgrade_adapter import NOTHING, call, load_submission, serve

COLS = "ABCDEFGH"
CELLS = {".": "", "w": "w", "b": "b"}


def main():
    """Loads the submission named on the command line and serves its functions."""
    student = load_submission(sys.argv[1])

    def set_board(*rows):
        """Set-up: `game_board` becomes this position (row 1 first); no student code runs."""
        board = getattr(student, "game_board", None)
        if not isinstance(board, dict):
            raise TypeError("game_board is not a dictionary (the handout asks for one)")
        if len(rows) != 8 or any(len(row) != 8 for row in rows):
            raise ValueError("set_board takes 8 rows of 8 cells")
        for number, row in enumerate(rows, start=1):
            for col, cell in zip(COLS, row):
                if cell not in CELLS:
                    raise ValueError("a cell is w, b or ., got %r" % cell)
                board[col + str(number)] = CELLS[cell]
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
