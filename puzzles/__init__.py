"""What the games ARE: pieces, boards, rule engines, card data, rendering.

This package never imports :mod:`solvers`.
"""
