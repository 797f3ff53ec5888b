"""coreflab.features"""
