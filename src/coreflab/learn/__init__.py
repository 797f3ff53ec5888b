"""coreflab.learn"""
