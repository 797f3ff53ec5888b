"""Haponchyk & Moschitti 2017: the LSP experiments (feature ranking, tuning, learning runs), the
MELA regressor's training data, the run grid, Tables 1-4 and Figs. 2-3. The learners are
coreflab.learn.trees.lsp; the learned loss itself is coreflab.mela."""
