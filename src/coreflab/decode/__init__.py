"""coreflab.decode: decoders over the arc store (best-first, beam search, correlation clustering)."""
