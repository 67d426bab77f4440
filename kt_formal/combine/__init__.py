"""Combinators: big tours assembled from small certified pieces of the library.

``divide`` is divide and conquer (after Parberry) for rectangles; ``frame`` holds the
rotation and support models for boards with holes (docs/methods.md names the documents
each comes from).
"""
