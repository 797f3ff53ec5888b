"""Corpus readers: CoNLL-2012, CoNLL-U, GUM, LitBank, a CoNLL-2012 release folder, Penn Treebank trees."""
