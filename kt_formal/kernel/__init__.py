"""The trusted kernel of kt_formal: everything a claim of the toolkit rests on.

It imports the standard library and numpy only, and nothing else of kt_formal, so that it
can be read in one sitting and checked on its own.

>>> from kt_formal.kernel.geometry import KNIGHT_MOVES
>>> len(KNIGHT_MOVES)
8
"""
