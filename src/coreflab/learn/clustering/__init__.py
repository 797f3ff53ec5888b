"""Clustering learners of Samdani et al. 2014: spanning forest, correlation clustering."""
