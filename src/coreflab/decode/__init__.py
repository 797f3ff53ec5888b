"""coreflab.decode: numba decoders over the arc store (best-first, beam search)."""
