"""Latent antecedent-tree learners: B&K 2014 (bk), H&M 2017 latent structured perceptron (lsp), string match."""
