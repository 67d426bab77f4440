"""Knight graph: edge counts, holes, neighbour tables."""

import networkx as nx
import numpy as np
import pytest

from kt_formal.board import Board
from kt_formal.exceptions import ResourceLimit
from kt_formal.graph import edge_count, knight_graph, neighbour_table


@pytest.mark.parametrize("rows", range(1, 10))
@pytest.mark.parametrize("cols", range(1, 10))
def test_edge_count_formula_on_full_boards(rows, cols):
    G = knight_graph(Board(rows, cols))
    assert G.number_of_nodes() == rows * cols
    expected = 4 * rows * cols - 6 * (rows + cols) + 8 if min(rows, cols) >= 2 else 0
    assert G.number_of_edges() == expected == edge_count(rows, cols)


def test_holes_remove_their_edges():
    full = knight_graph(Board(8, 8))
    b = Board.from_spec(8, 8, ["3,3,2x2"])
    G = knight_graph(b)
    removed = {(r, c) for r in (3, 4) for c in (3, 4)}
    lost = sum(1 for u, v in full.edges if u in removed or v in removed)
    assert G.number_of_edges() == 168 - lost
    assert not removed & set(G.nodes)
    assert all(G.nodes[n]["colour"] == (n[0] + n[1]) % 2 for n in G.nodes)
    assert nx.is_bipartite(G)


def test_neighbour_table_agrees_with_graph():
    b = Board(7, 9, holes=[(0, 0), (3, 4), (6, 8)])
    nt = neighbour_table(b)
    G = knight_graph(b)
    assert len(nt) == G.number_of_nodes()
    for i, sq in enumerate(nt.squares.tolist()):
        node = divmod(sq, b.cols)
        nbrs = {divmod(int(nt.squares[j]), b.cols) for j in nt.table[i] if j >= 0}
        assert nbrs == set(G.neighbors(node))
        assert nt.degree[i] == len(nbrs)
    assert len(nt.edges()) == G.number_of_edges()
    assert np.all(nt.node_of[nt.squares] == np.arange(len(nt)))


def test_graph_too_large_is_refused():
    with pytest.raises(ResourceLimit, match="knight graph"):
        knight_graph(Board(100_000, 100_000))
