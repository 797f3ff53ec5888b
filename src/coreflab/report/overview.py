"""Corpus overview figure: mentions per document, cluster sizes, antecedent distances by type.

A first look at any corpus a user brings (synthetic, LitBank, GUM, their own CoNLL-2012):
three panels per split, computed from the compiled arrays with numpy only.
"""

import numpy as np

from coreflab.corpus.compiled import TYPE_LETTERS

TYPE_NAMES = {1: "pronoun", 2: "name", 3: "common"}


def mentions_per_document(corpus):
    return np.diff(corpus.doc_mention_offsets)


def gold_cluster_sizes(corpus):
    keep = corpus.m_in_key == 1
    docs, clusters = corpus.m_doc[keep].astype(np.int64), corpus.m_cluster[keep].astype(np.int64)
    if docs.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, sizes = np.unique(np.stack([docs, clusters]), axis=1, return_counts=True)
    return sizes


def antecedent_sentence_distances(corpus):
    """Per gold anaphor (non-first mention of its cluster): (type, sentences back to the previous mention)."""
    keep = np.flatnonzero(corpus.m_in_key == 1)
    if keep.size == 0:
        return np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int64)
    order = keep[np.lexsort((keep, corpus.m_cluster[keep], corpus.m_doc[keep]))]
    same = (corpus.m_doc[order][1:] == corpus.m_doc[order][:-1]) & (corpus.m_cluster[order][1:] == corpus.m_cluster[order][:-1])
    ana, ante = order[1:][same], order[:-1][same]
    return corpus.m_type[ana], (corpus.m_sentence[ana] - corpus.m_sentence[ante]).astype(np.int64)


def overview_figure(corpora, title):
    """corpora: list of CompiledCorpus (one per split) → matplotlib Figure with three panels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, corpus in enumerate(corpora):
        c = colors[i % len(colors)]
        per_doc = mentions_per_document(corpus)
        axes[0].hist(per_doc, bins=30, histtype="step", linewidth=1.6, color=c,
                     label=f"{corpus.split} ({corpus.n_docs} docs, mean {per_doc.mean():.0f})")
        sizes = gold_cluster_sizes(corpus)
        if sizes.size:
            values, counts = np.unique(sizes, return_counts=True)
            axes[1].plot(values, counts, marker="o", markersize=3, color=c, label=corpus.split)
    types, dists = antecedent_sentence_distances(corpora[0])
    data = [np.clip(dists[types == t], 0, 30) for t in (1, 2, 3)]
    labels = [f"{TYPE_NAMES[t]} ({TYPE_LETTERS[t]}, n={len(d)})" for t, d in zip((1, 2, 3), data)]
    if any(len(d) for d in data):
        axes[2].hist([d for d in data], bins=np.arange(0, 32) - 0.5, label=labels, stacked=False, histtype="step", linewidth=1.6)
    axes[0].set(title="Mentions per document", xlabel="gold mentions", ylabel="documents")
    axes[1].set(title="Gold cluster sizes", xlabel="cluster size", ylabel="clusters", xscale="log", yscale="log")
    axes[2].set(title=f"Sentences back to the previous mention ({corpora[0].split})", xlabel="sentence distance (clipped at 30)",
                ylabel="anaphors", yscale="log")
    for ax in axes:
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, frameon=False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
