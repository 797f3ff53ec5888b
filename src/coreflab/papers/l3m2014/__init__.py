"""Samdani, Chang & Roth 2014: the studies (robustness, CCCP vs SGD, order control), supervised
clustering of 20 Newsgroups posts (Table 2), the run grid and the tables. The learners are
coreflab.learn.leftlink and coreflab.learn.clustering."""
