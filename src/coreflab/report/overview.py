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
    same = (corpus.m_doc[order][1:] == corpus.m_doc[order][:-1]) & (
        corpus.m_cluster[order][1:] == corpus.m_cluster[order][:-1]
    )
    ana, ante = order[1:][same], order[:-1][same]
    return corpus.m_type[ana], (corpus.m_sentence[ana] - corpus.m_sentence[ante]).astype(np.int64)


def overview_figure(corpora, title):
    """corpora: list of CompiledCorpus (one per split) → matplotlib Figure with three panels."""
    from coreflab.report import style

    fig, axes = style.new_figure(1, 3, panel_size=(4.4, 3.8))
    for i, corpus in enumerate(corpora):
        st = style.series_style(i)
        per_doc = mentions_per_document(corpus)
        axes[0].hist(
            per_doc,
            bins=30,
            histtype="step",
            linewidth=1.6,
            color=st["color"],
            linestyle=st["linestyle"],
            label=f"{corpus.split} ({corpus.n_docs} docs, mean {per_doc.mean():.0f})",
        )
        sizes = gold_cluster_sizes(corpus)
        if sizes.size:
            values, counts = np.unique(sizes, return_counts=True)
            axes[1].plot(values, counts, label=corpus.split, **st)
    types, dists = antecedent_sentence_distances(corpora[0])
    bins = np.arange(0, 32) - 0.5
    for k, t in enumerate((1, 2, 3)):
        d = np.clip(dists[types == t], 0, 30)
        if len(d):
            counts, _ = np.histogram(d, bins=bins)
            seen = counts > 0  # a log axis has no zero: plot the distances that occur
            axes[2].plot(
                np.arange(0, 31)[seen],
                counts[seen],
                label=f"{TYPE_NAMES[t]} ({TYPE_LETTERS[t]}, n={len(d)})",
                **style.series_style(k),
            )
    axes[0].set(title="Mentions per document", xlabel="gold mentions per document", ylabel="documents")
    axes[1].set(
        title="Gold cluster sizes",
        xlabel="cluster size (mentions, log scale)",
        ylabel="clusters (log scale)",
        xscale="log",
        yscale="log",
    )
    axes[2].set(
        title=f"Sentences back to the previous mention ({corpora[0].split})",
        xlabel="distance (sentences, clipped at 30)",
        ylabel="anaphors (log scale)",
        yscale="log",
    )
    style.plain_log_axis(axes[1], "x")
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    splits = ", ".join(c.split for c in corpora)
    return style.finish_figure(fig, f"{title} ({splits} splits)")
