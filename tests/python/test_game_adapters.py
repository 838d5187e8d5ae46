"""The game adapters: their argument parsing and checks, and whole sessions on small
submissions, each adapter started with the line boardgrade appends for its dialect."""

import sys
import textwrap

import pytest

from conftest import interface_call, load_script, source_of

minichess = load_script("games/minichess/adapter.py", "minichess_adapter")
ecs198f = load_script("games/chess/ecs198f_adapter.py", "ecs198f_adapter")


def write(folder, name, source):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


# minichess: JSON arguments, boards the call changed


def test_minichess_arguments_are_json_values_in_order():
    assert minichess._arguments('[[0, 1], [1, 0]] 2  "w" null') == [[[0, 1], [1, 0]], 2, "w", None]
    assert minichess._arguments("   ") == []
    with pytest.raises(ValueError):
        minichess._arguments("[1, 2")


def test_minichess_a_board_is_a_list_of_lists_of_integers():
    assert minichess._is_board([[0, 1], [2, 2]])
    assert not minichess._is_board([])
    assert not minichess._is_board([[[0]], [[1]]])
    assert not minichess._is_board("w")
    assert not minichess._is_board([[0, "x"]])


def test_minichess_reports_a_board_the_call_changed(monkeypatch):
    student = type(textwrap)("student")

    def move_maker(board, color):
        board[0][0] = color
        return [[9]]

    student.move_maker = move_maker
    monkeypatch.setattr(minichess, "_student", student)
    answer = minichess._command("move_maker")("[[0,", "1]]", "2")
    assert answer.value == "[[9]]"
    assert answer.tags == [("changed-input", "[[2, 1]]")]
    student.move_maker = lambda board, color: board
    assert minichess._command("move_maker")("[[0]] 1").tags == []


def test_minichess_answers_tuples_as_lists_and_says_what_was_returned(monkeypatch):
    assert minichess._listed(((0, 1), [2, 0])) == ([[0, 1], [2, 0]], True)
    assert minichess._listed([[0, 1], [2, 0]]) == ([[0, 1], [2, 0]], False)
    # Only the levels that hold boards: a list of boards, a board, its rows.
    assert minichess._listed([[[(1,)]]]) == ([[[(1,)]]], False)
    loop = []
    loop.append(loop)
    assert minichess._listed(loop)[1] is False
    student = type(textwrap)("student")
    student.move_maker = lambda board, color: [tuple(tuple(row) for row in board)]
    monkeypatch.setattr(minichess, "_student", student)
    answer = minichess._command("move_maker")("[[0, 1], [2, 0]] 1")
    assert answer.value == "[[[0, 1], [2, 0]]]"
    assert answer.tags == [("tuples", "[((0, 1), (2, 0))]")]
    student.move_maker = lambda board, color: [board]
    assert minichess._command("move_maker")("[[0, 1], [2, 0]] 1").tags == []


def test_minichess_session(tmp_path, serve_adapter):
    entry = write(tmp_path, "hexapawn.py", """
        def move_maker(board, color):
            return [row[:] for row in board]
        def chooser(boards, color):
            print("thinking")
            return boards[0]
    """)
    script = source_of("games/minichess/adapter.py") + '\nserve_functions("move_maker", "chooser")\n'
    served = serve_adapter(script, entry, ["move_maker [[1,1],[0,0]] 1", "chooser [[[1]],[[2]]] 2", "move 1"])
    assert served.status == 0, served.stderr
    assert served.responses == [
        ["=[[1, 1], [0, 0]]", "."],
        [":thinking", "=[[1]]", "."],
        ["!error UnknownCommand: 'move'", "."],
    ]


# one-d-chess project5: the interface's names and tokens


PROJECT5 = interface_call("serve_interface", "games/one_d_chess/project5.json")


def test_project5_session_speaks_the_handout_words(tmp_path, serve_adapter):
    entry = write(tmp_path, "one_d_chess.py", """
        def create_board():
            return ["WKi", "WKn", "WKn", "EMPTY", "EMPTY", "EMPTY", "BKn", "BKn", "BKi"]
        def is_valid_move(board, position, player):
            return board[position].startswith(player[0])
        def move(board, position, direction):
            step = 1 if direction == "RIGHT" else -1
            board[position + step], board[position] = board[position], "EMPTY"
        def is_game_over(board):
            return False
        if __name__ == "__main__":
            while True:
                input("move? ")
    """)
    served = serve_adapter(source_of("games/one_d_chess/project5_adapter.py") + PROJECT5, entry, [
        "create_board",
        "is_valid_move 2 WHITE",
        "is_valid_move 2 BLACK",
        "move 2 RIGHT",
        "board",
        "is_valid_move 2 PURPLE",
        "set_board WKi EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY BKi",
        "is_game_over",
        "set_board WKi",
        "whos_the_winner",
    ])
    assert served.status == 0, served.stderr
    assert served.responses == [
        ["=['WKi', 'WKn', 'WKn', 'EMPTY', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']", "."],
        ["=True", "."],
        ["=False", "."],
        ["."],
        ["=['WKi', 'WKn', 'EMPTY', 'WKn', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']", "."],
        ["!error ValueError: player must be WHITE or BLACK, got 'PURPLE'", "."],
        ["."],
        ["=False", "."],
        ["!error ValueError: set_board takes 9 cells, got 1", "."],
        ["!error UnknownCommand: 'whos_the_winner'", "."],
    ]


# pown-chess functions: the handout's game_board dictionary


def test_pown_functions_session_rewrites_game_board(tmp_path, serve_adapter):
    entry = write(tmp_path, "pown-chess.py", """
        game_board = {}
        def moves_remaining(color):
            return sum(1 for cell in game_board.values() if cell == color)
        def display_board():
            print(game_board["A1"] or ".")
        while True:
            input("your move: ")
    """)
    empty = " ".join(["........"] * 7)
    served = serve_adapter(source_of("games/pown_chess/functions_adapter.py"), entry, [
        "set_board wwb..... " + empty,
        "moves_remaining w",
        "display_board",
        "set_board wwb.....",
        "set_board x....... " + empty,
    ])
    assert served.status == 0, served.stderr
    assert served.responses == [
        ["."],
        ["=2", "."],
        [":w", "."],
        ["!error ValueError: set_board takes 8 rows of 8 cells", "."],
        ["!error ValueError: a cell is w, b or ., got 'x'", "."],
    ]


def test_pown_functions_an_empty_board_starts_at_the_start_and_a_filled_one_is_kept(tmp_path, serve_adapter):
    functions = """
        def moves_remaining(color):
            return sum(1 for cell in game_board.values() if cell == color)
        def display_board():
            print(game_board["A1"] + game_board["A8"] + str(len(game_board)))
        def main():
            game_board.update((c + r, "") for c in "ABCDEFGH" for r in "12345678")
            while True:
                input("w move: ")
        main()
    """
    empty = write(tmp_path, "pown-chess.py", "game_board = {}\n" + textwrap.dedent(functions))
    served = serve_adapter(source_of("games/pown_chess/functions_adapter.py"), empty,
                           ["moves_remaining w", "moves_remaining b", "display_board"])
    assert served.status == 0, served.stderr
    assert served.responses == [["=8", "."], ["=8", "."], [":wb64", "."]]
    (tmp_path / "own").mkdir()
    own = write(tmp_path / "own", "pown-chess.py", "game_board = {'A1': 'w'}\n" + textwrap.dedent(functions))
    served = serve_adapter(source_of("games/pown_chess/functions_adapter.py"), own, ["moves_remaining w"])
    assert served.status == 0, served.stderr
    assert served.responses == [["=1", "."]]


def test_pown_functions_an_empty_square_is_set_as_the_file_s_own_board_keeps_it(tmp_path, serve_adapter):
    # The file keeps ' ' on an empty square and prints the squares as they are: set up by the
    # adapter, its board reads and prints as its own game would.
    entry = write(tmp_path, "pown-chess.py", """
        game_board = {c + r: ("w" if r == "1" else "b" if r == "8" else " ")
                      for c in "ABCDEFGH" for r in "12345678"}
        def moves_remaining(color):
            return sum(1 for cell in game_board.values() if cell == color)
        def display_board():
            print("|" + "|".join(game_board[c + "2"] for c in "ABCD") + "|")
    """)
    empty = " ".join(["........"] * 6)
    served = serve_adapter(source_of("games/pown_chess/functions_adapter.py"), entry, [
        "set_board ........ w.w..... " + empty,
        "display_board",
    ])
    assert served.status == 0, served.stderr
    assert served.responses == [["."], [":|w| |w| |", "."]]


# chess ecs198f: a class, its method and fields


def test_ecs198f_board_lines_checks_every_square():
    board = [[""] * 8 for _ in range(8)]
    board[0][4] = "k"
    board[7][4] = "K"
    assert ecs198f.board_lines(board).split("\n") == ["....k..."] + ["........"] * 6 + ["....K..."]
    with pytest.raises(ValueError, match="board must be a list of 8 rows, got a list of 7"):
        ecs198f.board_lines(board[:7])
    board[6][0] = "x"
    with pytest.raises(ValueError, match=r"square a2 \(board\[6\]\[0\]\) holds 'x'"):
        ecs198f.board_lines(board)
    board[6] = "pppppppp"
    with pytest.raises(ValueError, match="board\\[6\\] must be a list of 8 squares, got 'pppppppp'"):
        ecs198f.board_lines(board)


def test_ecs198f_squares_are_named_from_white_side():
    assert ecs198f.square(0, 0) == "a8"
    assert ecs198f.square(7, 7) == "h1"


ECS198F = interface_call("serve_interface", "games/chess/ecs198f.json")


def test_ecs198f_session_on_the_template_layout(tmp_path, serve_adapter):
    write(tmp_path, "pychess/logic/helpers.py", """
        START = [list("rnbqkbnr"), list("pppppppp")] + [[""] * 8 for _ in range(4)] \\
            + [list("PPPPPPPP"), list("RNBQKBNR")]
    """)
    entry = write(tmp_path, "pychess/logic/chess_logic.py", """
        from .helpers import START
        class ChessLogic:
            def __init__(self):
                self.board = [row[:] for row in START]
                self.result = ""
            def play_move(self, move):
                print("student says", move)
                if move == "e2e4":
                    self.board[6][4], self.board[4][4] = "", "P"
                    return "e2e4"
                return ""
        game = ChessLogic()
        game.play_move(input("move: "))
    """)
    served = serve_adapter(source_of("games/chess/ecs198f_adapter.py") + ECS198F, entry, [
        "play_move e2e5",
        "play_move e2e4",
        "board",
        "result",
        "new_game",
        "board",
    ])
    assert served.status == 0, served.stderr
    assert served.responses[:4] == [
        ["=''", "."],
        ["='e2e4'", "."],
        ["=rnbqkbnr", "=pppppppp", "=........", "=........", "=....P...", "=........", "=PPPP.PPP", "=RNBQKBNR",
         "."],
        ["=''", "."],
    ]
    assert served.responses[4:] == [["."], served.responses[2][:4] + ["=........"] * 2 + [
        "=PPPPPPPP", "=RNBQKBNR", "."]]
    assert "student says e2e4" in served.stderr
    assert "its top-level program stopped the import" in served.stderr


# A class file in packages whose only legal move is the package's `FIRST`, imported as `import`.
PACKAGED_CLASS = """
    {import}
    class ChessLogic:
        def __init__(self):
            self.board = [[""] * 8 for _ in range(8)]
            self.result = ""
        def play_move(self, move):
            return move if move == FIRST else ""
"""


def packages(tmp_path):
    """`pychess/` and `pychess/logic/` as packages, `pychess/config.py` holding `FIRST`."""
    write(tmp_path, "pychess/__init__.py", "")
    write(tmp_path, "pychess/config.py", "FIRST = 'e2e4'\n")
    write(tmp_path, "pychess/logic/__init__.py", "")


def test_ecs198f_a_package_layout_resolves_relative_imports_as_python_does(tmp_path, serve_adapter):
    # `from ..config` goes above `logic`: only the full name `pychess.logic.chess_logic`
    # reaches `pychess.config`.
    packages(tmp_path)
    write(tmp_path, "pychess/logic/utils.py", """
        from ..config import FIRST
    """)
    entry = write(tmp_path, "pychess/logic/chess_logic.py",
                  PACKAGED_CLASS.replace("{import}", "from .utils import FIRST"))
    served = serve_adapter(source_of("games/chess/ecs198f_adapter.py") + ECS198F, entry, [
        "play_move e2e4",
        "play_move e2e5",
    ])
    assert served.status == 0, served.stderr
    assert served.responses == [["='e2e4'", "."], ["=''", "."]]


def test_ecs198f_a_program_left_in_a_package_module_still_loads_its_class(tmp_path, serve_adapter):
    packages(tmp_path)
    program = PACKAGED_CLASS.replace("{import}", "from ..config import FIRST")
    entry = write(tmp_path, "pychess/logic/chess_logic.py", program + '    ChessLogic().play_move(input("move: "))\n')
    served = serve_adapter(source_of("games/chess/ecs198f_adapter.py") + ECS198F, entry, ["play_move e2e4"])
    assert served.status == 0, served.stderr
    assert served.responses == [["='e2e4'", "."]]
    assert "its top-level program stopped the import" in served.stderr


def test_ecs198f_names_a_missing_class(tmp_path, serve_adapter):
    entry = write(tmp_path, "pychess/logic/chess_logic.py", """
        class ChessGame:
            pass
    """)
    served = serve_adapter(source_of("games/chess/ecs198f_adapter.py") + ECS198F, entry, ["board"])
    assert served.status == 1
    assert served.responses == []
    assert ("boardgrade: pychess/logic/chess_logic.py defines no class ChessLogic "
            "(classes defined there: ChessGame)") in served.stderr


def test_ecs198f_student_code_sees_an_empty_stdin_even_after_closing_it():
    stdout, stdin = sys.stdout, sys.stdin
    for _ in range(2):
        with ecs198f.student_io():
            assert sys.stdout is sys.stderr
            assert sys.stdin.read() == ""
            sys.stdin.close()  # the next call still reads an empty stdin
        assert (sys.stdout, sys.stdin) == (stdout, stdin)
