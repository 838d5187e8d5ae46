"""boardgrade adapter for one-d-chess/project5 (seed 000) and its variants: serves the call
protocol of specs/one-d-chess/PROTOCOL.md on a student's file.

The functions' names and argument order and the tokens are data: boardgrade appends a last
line `serve_interface({...})` with the interface of the dialect or variant graded (the
handout's is project5.json). Commands keep the handout's names and words on the wire
(`is_valid_move 6 BLACK`); a call gets the interface's (`is_valid(6, "Black", board)`).
"""

import sys

from boardgrade_adapter import NOTHING, call, load_submission, serve

PIECES = ("WKi", "WKn", "BKi", "BKn")
START = ["WKi", "WKn", "WKn", None, None, None, "BKn", "BKn", "BKi"]
WIRE = {"WHITE": "white", "BLACK": "black", "LEFT": "left", "RIGHT": "right"}


def serve_interface(interface):
    """Loads the submission named on the command line and serves the interface's functions."""
    student = load_submission(sys.argv[1])
    tokens = interface["tokens"]
    functions = interface["functions"]
    empty = tokens["empty"]
    session = {"board": [empty if cell is None else cell for cell in START]}

    def word(kind, given):
        """The interface's token for a handout word or the token itself."""
        for wire, key in WIRE.items():
            if key in kind and given in (wire, tokens[key]):
                return tokens[key]
        raise ValueError("%s must be %s, got %r" % (
            kind[0], " or ".join(tokens[k] for k in kind[1:]), given))

    def invoke(role, **values):
        function = functions[role]
        return call(student, function["name"], *[values[arg] for arg in function["args"]])

    def set_board(*cells):
        """Set-up: the session board becomes this list; no student code runs."""
        if len(cells) != len(START):
            raise ValueError("set_board takes %d cells, got %d" % (len(START), len(cells)))
        board = []
        for cell in cells:
            if cell in ("EMPTY", empty):
                board.append(empty)
            elif cell in PIECES:
                board.append(cell)
            else:
                raise ValueError("a cell is WKi, WKn, BKi, BKn or EMPTY, got %r" % cell)
        session["board"] = board
        return NOTHING

    def create_board():
        result = invoke("create_board")
        if isinstance(result, list):
            session["board"] = result
        return repr(result)

    def printable_board(*how):
        """`printable_board copy` hands the function a copy of the board: a scenario about
        another function shows the handout's pictures without letting a printable_board that
        changes its argument change the board that scenario judges."""
        if how not in ((), ("copy",)):
            raise ValueError("printable_board takes nothing or `copy`, got %r" % " ".join(how))
        board = list(session["board"]) if how else session["board"]
        result = invoke("printable_board", board=board)
        return result if isinstance(result, str) else repr(result)

    def is_valid_move(position, player):
        return repr(invoke("is_valid_move", board=session["board"], position=int(position),
                           player=word(("player", "white", "black"), player)))

    def mover(role):
        def command(position, direction):
            invoke(role, board=session["board"], position=int(position),
                   direction=word(("direction", "left", "right"), direction))
            return NOTHING
        return command

    def asks_the_board(role):
        def command():
            return repr(invoke(role, board=session["board"]))
        return command

    def board():
        return repr(session["board"])

    handlers = {
        "create_board": create_board,
        "printable_board": printable_board,
        "is_valid_move": is_valid_move,
        "move": mover("move"),
        "move_king": mover("move_king"),
        "move_knight": mover("move_knight"),
        "is_game_over": asks_the_board("is_game_over"),
        "whos_the_winner": asks_the_board("whos_the_winner"),
    }
    commands = {role: handler for role, handler in handlers.items() if role in functions}
    commands["set_board"] = set_board
    commands["board"] = board
    serve(commands)
