"""coreflab.report"""
