"""Mention-pair learners of Choi & Cardie 2007: CRF with structured local training."""
