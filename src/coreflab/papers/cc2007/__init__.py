"""Choi & Cardie 2007: per-EM-iteration evaluation, the run grid and Tables 1-3. The learners are
coreflab.learn.pairwise.crf_slt."""
