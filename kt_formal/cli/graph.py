"""``kt-formal graph``: describe the knight graph of a board, or write it to a file.

Squares, edges, colour counts and degree histogram of the knight graph; with --format
and --out, the graph itself as GraphML, an edge list or node-link JSON.
"""

from __future__ import annotations

from kt_formal import api
from kt_formal.api import InvalidInput
from kt_formal.cli.common import add_board_arguments, board_from_args, command, notify


GRAPH_EXAMPLES = """\
examples:
  kt-formal graph 8 8 --hole 3,3,2x2                 squares, edges, colours, degrees
  kt-formal graph 8 8 --format graphml --out k8.graphml
  kt-formal graph 6 6 --format edgelist --out k6.txt  one edge 'r,c r,c' a line
  kt-formal graph 5 5 --format json --out k5.json     networkx node-link JSON

  kt-formal graph 8 8 --format edgelist --out k8.txt --squares chess   one edge 'a1 b3' a line

Nodes are written as 'r,c' (0-based, row 0 at the top), or with --squares chess as chess
names (a1 bottom left), with attributes row, col and colour; networkx reads the files back
(read_graphml, read_edgelist, node_link_graph).
"""


def add_graph(sub) -> None:
    p = command(sub, __doc__, GRAPH_EXAMPLES)
    add_board_arguments(p)
    p.add_argument("--format", choices=["graphml", "edgelist", "json"],
                   help="write the graph in this format (networkx's writers) to --out")
    p.add_argument("--out", metavar="FILE", help="file to write the graph to (with --format)")
    p.add_argument("--squares", choices=("chess", "rc"), default=None,
                   help="name the nodes of the written graph as chess names (a1) or ROW,COL (7,0); "
                        "default: ROW,COL")
    p.set_defaults(run=_run_graph)


#: Memory a square of the board takes in the exported graph (networkx and the writer), measured
#: on 300x300 (`/usr/bin/time -v kt-formal graph 300 300 --format graphml --out g.graphml`: 610 MB).
def _run_graph(args) -> int:
    if bool(args.format) != bool(args.out):
        raise InvalidInput("--format and --out go together: kt-formal graph 8 8 --format graphml --out k8.graphml")
    if args.squares and not args.out:
        raise InvalidInput("--squares names the nodes of the written graph: give --format and --out too")
    board = board_from_args(args)
    g = api.graph_summary(board)
    print(f"board:   {board.describe()}")
    print(f"squares: {g['squares']}")
    print(f"edges:   {g['edges']}")
    print(f"colours: {g['dark']} dark, {g['light']} light (a1 is dark)")
    print("degrees: " + ", ".join(f"{d}: {n}" for d, n in g["degrees"].items()))
    if args.out:
        api.write_knight_graph(board, args.out, args.format, squares=args.squares or "rc")
        notify(args, f"wrote the knight graph ({board.n_squares} nodes, {g['edges']} edges) as {args.format} "
                    f"to {args.out}")
    return 0
