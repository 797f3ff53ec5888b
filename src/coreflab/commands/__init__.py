"""coreflab.commands"""
