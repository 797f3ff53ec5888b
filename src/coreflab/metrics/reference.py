"""A literal, slow transcription of the official scorer v8.01 (CorScorer.pm), one document.

Why it exists: the fast scorer (`coreflab.metrics.counts`) computes every metric from a
key x response contingency table, which is exact when no mention span occurs twice on a
side. v8.01 has peculiar rules for repeated spans (`IdentifMentions`): a key span seen
twice gets one id (the last one) that then sits in both chains; a response span that
matches a key mention is kept only at its first occurrence, but a repeated *twinless*
response span keeps both occurrences with one id. Documents with repeated spans are
scored here instead, so we agree with v8.01 on them too; the test suite also uses this
module as the oracle for the fast path.

Every function mirrors the perl sub of the same name (MUCScorer, BCUBED, CEAF, LEA,
BLANC_Internal) and works on chains of integer mention ids, with multiplicity.
Pradhan et al. (2014), "Scoring coreference partitions of predicted mentions".
"""

from itertools import combinations

import numpy as np

from coreflab.metrics.assignment import linear_sum_assignment


def identify_mentions(key_clusters, response_clusters):
    """perl IdentifMentions: mention ids, the chains the metrics use, identification counts.

    Returns dict with key_chains, response_chains (ids, "Orig" chains of the perl),
    muc_response (the response with unmatched key mentions added as singletons and twinless
    response singletons dropped), mention counts (exact, key_unique, response_unique) and
    the number of repeated response mentions removed.
    """
    ident = {}
    count = 0
    for chain in key_clusters:
        for span in chain:
            ident[tuple(span)] = count  # a repeated key span keeps its last id
            count += 1
    mapping = {}
    assigned = set()
    exact = 0
    repeated = 0
    response = []
    for chain in response_clusters:
        kept = []
        for span in chain:
            span = tuple(span)
            if span in mapping:
                repeated += 1
                continue
            if span in ident and ident[span] not in assigned:
                assigned.add(ident[span])
                mapping[span] = ident[span]
                exact += 1
            kept.append(span)
        if kept:
            response.append(kept)
    for chain in response:
        for span in chain:
            if span not in mapping:
                mapping[span] = count
                count += 1
    key_chains = [[ident[tuple(s)] for s in chain] for chain in key_clusters]
    response_chains = [[mapping[s] for s in chain] for chain in response]
    # MUC's response: steps 1 and 2 of IdentifMentions
    k_index = _index(key_chains)
    r_index = _index(response_chains)
    muc_response = [list(c) for c in response_chains]
    if len(ident) - exact > 0:
        for chain in key_chains:
            for m in chain:
                if m not in r_index:
                    muc_response.append([m])
    muc_response = [c for c in muc_response if not (len(c) == 1 and c[0] not in k_index)]
    return {
        "key_chains": key_chains,
        "response_chains": response_chains,
        "muc_response": muc_response,
        "exact": exact,
        "key_unique": len(ident),
        "response_unique": len(mapping),
        "repeated": repeated,
    }


def _index(chains):
    """perl Indexa: mention id -> index of the last chain holding it."""
    index = {}
    for i, chain in enumerate(chains):
        for m in chain:
            index[m] = i
    return index


def muc(keys, response):
    k_index = _index(keys)
    correct = 0
    for chain in response:
        for i, a in enumerate(chain):
            for b in chain[i + 1 :]:
                if a in k_index and b in k_index and k_index[a] == k_index[b]:
                    correct += 1
                    break
    key_links = sum(len(c) - 1 for c in keys if c)
    response_links = sum(len(c) - 1 for c in response if c)
    return correct, key_links, correct, response_links


def bcubed(keys, response):
    k_index = _index(keys)
    acc_p = acc_r = 0.0
    for r_chain in response:
        for m in r_chain:
            k_chain = keys[k_index[m]] if m in k_index else []
            k_set = set(k_chain)
            ci = sum(1 for mr in r_chain if mr in k_set)
            acc_p += ci / len(r_chain)
            if k_chain:
                acc_r += ci / len(k_chain)
    return acc_r, sum(len(c) for c in keys), acc_p, sum(len(c) for c in response)


def ceaf(keys, response, mention_based):
    n_k, n_r = len(keys), len(response)
    total = 0.0
    if n_k and n_r:
        # |a ∩ b| for every key chain a and response chain b (an id counted once per entry of a)
        where = {}
        for j, b in enumerate(response):
            for m in set(b):
                where.setdefault(m, []).append(j)
        inter = np.zeros((n_k, n_r))
        for i, a in enumerate(keys):
            row = inter[i]
            for x in a:
                for j in where.get(x, ()):
                    row[j] += 1
        if mention_based:
            sim = inter
        else:
            sizes = (
                np.array([len(a) for a in keys], dtype=float)[:, None]
                + np.array([len(b) for b in response], dtype=float)[None, :]
            )
            sim = 2 * inter / sizes
        rows, cols = linear_sum_assignment(sim, maximize=True)
        total = float(sim[rows, cols].sum())
    if mention_based:
        return total, sum(len(c) for c in keys), total, sum(len(c) for c in response)
    return total, sum(1 for c in keys if c), total, sum(1 for c in response if c)


def _lea_side(keys, response):
    r_index = _index(response)
    num = 0.0
    den = 0
    for chain in keys:
        size = len(chain)
        correct = 0
        if size == 1:
            m = chain[0]
            if m in r_index and len(response[r_index[m]]) == 1:
                correct = 1
            links = 1
        else:
            for i, a in enumerate(chain):
                for b in chain[i + 1 :]:
                    if a in r_index and b in r_index and r_index[a] == r_index[b]:
                        correct += 1
            links = size * (size - 1) / 2
        if links:
            num += size * correct / links
        den += size
    return num, den


def lea(keys, response):
    nr, dr = _lea_side(keys, response)
    np_, dp = _lea_side(response, keys)
    return nr, dr, np_, dp


def _links(chains):
    coref = set()
    for chain in chains:
        for a, b in combinations(chain, 2):
            coref.add((min(a, b), max(a, b)))
    non_coref = set()
    for i, j in combinations(range(len(chains)), 2):
        for a in chains[i]:
            for b in chains[j]:
                non_coref.add((min(a, b), max(a, b)))
    return coref, non_coref


def _link_codes(chains, base):
    """`_links` as sorted integer codes min * base + max, from all entry pairs at once.

    Two entries of one chain give a coreference link (perl's combinations within a chain);
    entries of two different chains a non-coreference link (its cartesian products of chain
    pairs): together these are exactly the unordered pairs of entries.
    """
    sizes = [len(c) for c in chains]
    ids = np.fromiter((m for c in chains for m in c), dtype=np.int64, count=sum(sizes))
    owner = np.repeat(np.arange(len(chains)), sizes)
    i, j = np.triu_indices(len(ids), 1)
    a, b = ids[i], ids[j]
    code = np.minimum(a, b) * base + np.maximum(a, b)
    same = owner[i] == owner[j]
    return np.unique(code[same]), np.unique(code[~same])


_VECTOR_LINKS = 4000  # entries per side up to which the pair arrays stay small (< 8M pairs)


def blanc(keys, response):
    """perl BLANC_Internal: sets of coreference and non-coreference links (8 counts)."""
    n_k, n_r = sum(len(c) for c in keys), sum(len(c) for c in response)
    if max(n_k, n_r) > _VECTOR_LINKS:
        kc, kn = _links(keys)
        rc, rn = _links(response)
        ic, inn = len(kc & rc), len(kn & rn)
        return ic, len(kc), ic, len(rc), inn, len(kn), inn, len(rn)
    base = 1 + max([m for c in keys for m in c] + [m for c in response for m in c], default=0)
    kc, kn = _link_codes(keys, base)
    rc, rn = _link_codes(response, base)
    ic = len(np.intersect1d(kc, rc, assume_unique=True))
    inn = len(np.intersect1d(kn, rn, assume_unique=True))
    return ic, len(kc), ic, len(rc), inn, len(kn), inn, len(rn)


def score_document(key_clusters, response_clusters):
    """Every v8.01 metric on one document: {metric: tuple of numerators/denominators}."""
    ids = identify_mentions(key_clusters, response_clusters)
    keys, resp = ids["key_chains"], ids["response_chains"]
    return {
        "mentions": (ids["exact"], ids["key_unique"], ids["exact"], ids["response_unique"]),
        "muc": muc(keys, ids["muc_response"]),
        "bcub": bcubed(keys, resp),
        "ceafm": ceaf(keys, resp, True),
        "ceafe": ceaf(keys, resp, False),
        "blanc": blanc(keys, resp),
        "lea": lea(keys, resp),
        "repeated": ids["repeated"],
    }
