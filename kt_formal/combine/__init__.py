"""Combinators: big tours assembled from small certified pieces of the library.

``divide`` is divide and conquer (seed 000, after Parberry) for rectangles; ``frame``
holds the rotation and support models of seed 003 for boards with holes.
"""
