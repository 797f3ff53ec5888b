"""coreflab.mela"""
