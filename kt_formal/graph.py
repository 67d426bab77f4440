"""The knight graph of a board, as a networkx graph and as numpy tables for engines.

Nodes are the live squares ``(row, col)``; two squares are joined when a knight
moves between them. On a full m x n board (m, n >= 2) the graph has
``4mn - 6(m + n) + 8`` edges.

>>> from kt_formal.board import Board
>>> G = knight_graph(Board(8, 8))
>>> G.number_of_nodes(), G.number_of_edges()
(64, 168)
"""

from __future__ import annotations

import numpy as np

from kt_formal.board import KNIGHT_MOVES, Board, ensure_memory

__all__ = ["knight_graph", "neighbour_table", "edge_count", "NeighbourTable"]

# networkx keeps a dict per node and per adjacency: about 1.5 KB per square
_NX_BYTES_PER_SQUARE = 1500


def edge_count(rows: int, cols: int) -> int:
    """Edges of the knight graph of the full m x n board (no holes).

    >>> edge_count(8, 8), edge_count(1, 5), edge_count(3, 3)
    (168, 0, 8)
    """
    if rows < 2 or cols < 2:
        return 0
    return 4 * rows * cols - 6 * (rows + cols) + 8


class NeighbourTable:
    """Compact adjacency for engines.

    Attributes
    ----------
    squares : (k,) int64 array
        Board index (``row * cols + col``) of each live square, ascending; a square's
        position in this array is its *node* number 0..k-1.
    table : (k, 8) int32 array
        Node numbers of the neighbours in :data:`~kt_formal.board.KNIGHT_MOVES`
        order, -1 where the move leaves the board or lands on a hole.
    degree : (k,) int32 array
    node_of : (rows * cols,) int32 array
        Node number of each board index, -1 on holes.
    memo : dict
        Values the engines derive from the table once and reuse across their runs.
    """

    __slots__ = ("board", "squares", "table", "degree", "node_of", "memo")

    def __init__(self, board: Board):
        k = board.n_squares
        ensure_memory(board.size * 4 + k * 48, f"the neighbour table of the {board.describe()} board")
        self.board = board
        rows, cols = board.rows, board.cols
        live = board.live_mask()
        node_of = np.full(rows * cols, -1, dtype=np.int32)
        squares = np.flatnonzero(live.ravel())
        node_of[squares] = np.arange(k, dtype=np.int32)
        r, c = np.divmod(squares, cols)
        table = np.full((k, 8), -1, dtype=np.int32)
        for j, (dr, dc) in enumerate(KNIGHT_MOVES):
            r2, c2 = r + dr, c + dc
            ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
            idx = np.where(ok, r2 * cols + c2, 0)
            table[:, j] = np.where(ok, node_of[idx], -1)
        self.squares = squares
        self.table = table
        self.degree = (table >= 0).sum(axis=1).astype(np.int32)
        self.node_of = node_of
        self.memo = {}

    def __len__(self) -> int:
        return int(self.squares.shape[0])

    def node(self, square) -> int:
        """Node number of a live (row, col) square."""
        r, c = square
        return int(self.node_of[r * self.board.cols + c])

    def edges(self) -> np.ndarray:
        """(E, 2) array of undirected edges (u < v) between node numbers."""
        u = np.repeat(np.arange(len(self), dtype=np.int32), 8)
        v = self.table.ravel()
        keep = v > u
        return np.stack([u[keep], v[keep]], axis=1)


def neighbour_table(board: Board) -> NeighbourTable:
    """The :class:`NeighbourTable` of a board."""
    return NeighbourTable(board)


def knight_graph(board: Board):
    """The knight graph of ``board`` as a :class:`networkx.Graph` on (row, col) nodes.

    Nodes carry the attribute ``colour`` ((row + col) % 2).

    Raises
    ------
    ResourceLimit
        When the graph would not fit in memory.
    """
    import networkx as nx

    ensure_memory(board.n_squares * _NX_BYTES_PER_SQUARE, f"the knight graph of the {board.describe()} board")
    nt = NeighbourTable(board)
    r, c = np.divmod(nt.squares, board.cols)
    nodes = list(zip(r.tolist(), c.tolist()))
    G = nx.Graph()
    G.add_nodes_from((sq, {"colour": (sq[0] + sq[1]) % 2}) for sq in nodes)
    e = nt.edges()
    G.add_edges_from((nodes[a], nodes[b]) for a, b in e.tolist())
    return G
