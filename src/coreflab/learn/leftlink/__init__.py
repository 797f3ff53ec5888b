"""Left-linking learners of Samdani et al. 2014: L3M (SGD and CCCP), Sum-Link, Bin-Left-Link."""
