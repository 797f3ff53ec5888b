"""singh2011"""
