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


def test_a_graph_export_larger_than_memory_is_refused_before_it_is_built(cli, tmp_path, monkeypatch):
    """networkx holds every square and move as Python objects (300x300 as GraphML: 610 MB):
    with 1 GiB available, 400x400 (about 1.1 GB) is refused in one line before the graph is
    made, and 100x100 is written."""
    from kt_formal import memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 30)
    r = cli("graph", "400", "400", "--format", "graphml", "--out", tmp_path / "g.graphml", "-q")
    assert r.code == 2
    assert "the knight graph of 160,000 squares as graphml needs about" in r.err
    assert not (tmp_path / "g.graphml").exists()
    assert cli("graph", "100", "100", "--format", "graphml", "--out", tmp_path / "h.graphml", "-q").code == 0
    assert (tmp_path / "h.graphml").stat().st_size > 0
