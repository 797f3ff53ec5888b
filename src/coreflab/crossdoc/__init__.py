"""coreflab.crossdoc"""
