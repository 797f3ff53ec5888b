"""coreflab.metrics"""
