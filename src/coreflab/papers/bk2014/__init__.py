"""Björkelund & Kuhn 2014: greedy template selection, root-loss tuning, the run grid of the update
strategies, and Figs. 3-4 and Tables 1-2. The latent-tree learners are coreflab.learn.trees.bk."""
