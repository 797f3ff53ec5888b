"""The embedded synthetic corpus: lexicon, entities, discourse generator, document builder."""
