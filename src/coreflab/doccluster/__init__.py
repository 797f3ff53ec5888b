"""Supervised clustering of forum posts (Samdani, Chang & Roth 2014, Sec. 5.2) on 20 Newsgroups."""
