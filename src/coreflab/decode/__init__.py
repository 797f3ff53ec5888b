"""coreflab.decode"""
