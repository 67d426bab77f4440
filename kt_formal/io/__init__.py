"""Input and output: file formats (text grids, JSON, ``.npy``, successor arrays) and pictures.

This layer sits above the finders and constructions: it reads and writes what they make,
and nothing below it imports it.

>>> from kt_formal.io import render
>>> render.MAX_SVG_SIDE > 0
True
"""
