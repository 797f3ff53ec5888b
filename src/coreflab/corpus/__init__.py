"""coreflab.corpus"""
