"""Knight graphs in files: networkx's writers (GraphML, edge lists, JSON) for a graph with portable node names."""

from __future__ import annotations

from pathlib import Path
from kt_formal.exceptions import InvalidInput

__all__ = ["portable_graph", "write_graph", "GRAPH_FORMATS"]


#: Formats of ``kt-formal graph --format``: networkx's writers.
GRAPH_FORMATS = ("graphml", "edgelist", "json")


def portable_graph(G, chess_rows: int | None = None):
    """A copy of a knight graph with string nodes ``"r,c"`` that every file format keeps;
    with ``chess_rows`` (the board's number of rows), chess names ``"a1"`` instead.

    Node attributes: ``row``, ``col`` and those of the graph (``colour``).

    >>> from kt_formal.board import Board
    >>> from kt_formal.graph import knight_graph
    >>> H = portable_graph(knight_graph(Board(3, 4)))
    >>> sorted(H.nodes)[:3], H.nodes["0,0"]["row"]
    (['0,0', '0,1', '0,2'], 0)
    >>> sorted(portable_graph(knight_graph(Board(3, 4)), chess_rows=3).nodes)[:3]
    ['a1', 'a2', 'a3']
    """
    import networkx as nx

    from kt_formal.claims import square_name

    def name(q) -> str:
        return square_name(chess_rows, q) if chess_rows is not None else f"{q[0]},{q[1]}"

    H = nx.Graph(**G.graph)
    for (r, c), data in G.nodes(data=True):
        H.add_node(name((r, c)), row=int(r), col=int(c), **data)
    H.add_edges_from((name(a), name(b)) for a, b in G.edges())
    return H


def write_graph(G, path, fmt: str, chess_rows: int | None = None) -> Path:
    """Write a knight graph as GraphML, an edge list (``r,c r,c`` a line) or node-link JSON.

    Nodes are written as ``"r,c"`` strings, or chess names (``a1``) with ``chess_rows``
    (:func:`portable_graph`); networkx reads each file back with ``read_graphml``,
    ``read_edgelist`` and ``node_link_graph``.
    """
    import json

    import networkx as nx

    if fmt not in GRAPH_FORMATS:
        raise InvalidInput(f"unknown graph format {fmt!r}; choose from {', '.join(GRAPH_FORMATS)}")
    H = portable_graph(G, chess_rows)
    from kt_formal.files import output_file

    with output_file(path, binary=True) as fh:
        if fmt == "graphml":
            nx.write_graphml(H, fh)
        elif fmt == "edgelist":
            nx.write_edgelist(H, fh, data=False)
        else:
            try:
                data = nx.node_link_data(H, edges="links")
            except TypeError:  # networkx < 3.4 has no edges= and writes "links"
                data = nx.node_link_data(H)
            fh.write((json.dumps(data) + "\n").encode("utf-8"))
    return Path(path)
