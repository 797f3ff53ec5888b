"""Head tokens: Collins-style head rules over parse trees, and a fallback without a parse.

Head rules: the table of Stanford CoreNLP's `ModCollinsHeadFinder` (Collins 1999, Appendix A,
as modified by Stanford for the Penn Treebank / OntoNotes label set), reduced to the common
labels. Each label has a list of rules tried in order; a rule is a direction and a list of
categories:
  left     for each category in order, the first child from the left with that label;
  right    the same, scanning children from the right;
  leftdis  the first child from the left whose label is any of the categories;
  rightdis the same from the right.
When no rule matches, the first rule's direction picks the first (left*) or last (right*)
child (Collins' default). NPs follow Collins' special case: a final POS child ('s) is the head.
Labels without rules take the first child. The head token of a node is the head token of its
head child; a token (a preterminal, labelled by its POS) is its own head.

Fallback without a parse (or for a span that is no constituent), following the Stanford
mention finder's heuristic: cut the span before its first preposition, relative pronoun,
comma or opening bracket (not counting its first token); in the remaining prefix the head is the
last noun-like token (POS NN*, PRP, CD, or -- without POS -- any word that is not a function
word), else the prefix's last token.

The scans run in numba over the flat arrays of `coreflab.corpus.parse_tree.Tree`.
"""

import numpy as np
from numba import njit

from coreflab.corpus.parse_tree import LABEL_IDS, label_id

LEFT, RIGHT, LEFTDIS, RIGHTDIS = 0, 1, 2, 3
_DIRS = {"left": LEFT, "right": RIGHT, "leftdis": LEFTDIS, "rightdis": RIGHTDIS}

_NP_RULES = [
    ("rightdis", "NN NNP NNPS NNS NML NX POS JJR"),
    ("left", "NP PRP"),
    ("rightdis", "$ ADJP JJP PRN FW"),
    ("right", "CD"),
    ("rightdis", "JJ JJS RB QP DT WDT RBR ADVP"),
    ("left", "POS"),
]

HEAD_RULES = {
    "ADJP": [
        ("left", "$"),
        ("rightdis", "NNS NN JJ QP VBN VBG"),
        ("left", "ADJP"),
        ("rightdis", "JJP JJR JJS DT RB RBR CD IN VBD"),
        ("left", "ADVP NP"),
    ],
    "ADVP": [
        ("left", "ADVP IN"),
        ("rightdis", "RB RBR RBS JJ JJR JJS"),
        ("rightdis", "RP DT NN CD NP VBN NNP CC FW NNS ADJP NML"),
    ],
    "CONJP": [("right", "CC RB IN")],
    "FRAG": [("right", "")],
    "INTJ": [("left", "")],
    "LST": [("right", "LS :")],
    "NAC": [("left", "NN NNS NML NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP JJP FW")],
    "NX": [("right", "NP NX")],
    "PP": [("right", "IN TO VBG VBN RP FW JJ SYM"), ("left", "PP")],
    "PRN": [("left", "VP NP PP SQ S SINV SBAR ADJP JJP ADVP INTJ WHNP NAC VBP JJ NN NNP")],
    "PRT": [("right", "RP")],
    "QP": [("left", "$ IN NNS NN JJ CD PDT DT RB NCD QP JJR JJS")],
    "RRC": [("left", "RRC"), ("right", "VP ADJP JJP NP PP ADVP")],
    "S": [("left", "TO VP S FRAG SBAR ADJP JJP UCP NP P")],
    "SBAR": [("left", "WHNP WHPP WHADVP WHADJP IN DT S SQ SINV SBAR FRAG")],
    "SBARQ": [("left", "SQ S SINV SBARQ FRAG SBAR")],
    "SINV": [("left", "VBZ VBD VBP VB MD VBN VP S SINV ADJP JJP NP")],
    "SQ": [("left", "VBZ VBD VBP VB MD AUX AUXG VP SQ")],
    "UCP": [("right", "")],
    "VP": [("left", "TO VBD VBN MD VBZ VB VBG VBP VP AUX AUXG ADJP JJP NN NNS JJ NP NNP")],
    "WHADJP": [("left", "WRB WHADVP RB JJ ADJP JJP JJR")],
    "WHADVP": [("right", "WRB WHADVP")],
    "WHNP": [("left", "WDT WP WP$ WHADJP WHPP WHNP")],
    "WHPP": [("right", "IN TO FW")],
    "X": [("right", "S VP ADJP JJP NP SBAR PP X")],
    "NP": _NP_RULES,
    "NML": _NP_RULES,
    "POSSP": [("right", "POS")],
    "TOP": [("left", "S SQ SINV SBARQ FRAG")],
    "ROOT": [("left", "S SQ SINV SBARQ FRAG")],
    "META": [("left", "")],
}


def _compile_rules():
    for lab in HEAD_RULES:
        label_id(lab)
    for rules in HEAD_RULES.values():
        for _, cats in rules:
            for c in cats.split():
                label_id(c)
    n = len(LABEL_IDS)
    rules_off = np.zeros(n + 1, np.int32)
    dirs, cat_off, cats_flat = [], [0], []
    per_label = [[] for _ in range(n)]
    for lab, rules in HEAD_RULES.items():
        per_label[LABEL_IDS[lab]] = rules
    for i, rules in enumerate(per_label):
        for d, cats in rules:
            dirs.append(_DIRS[d])
            cats_flat += [LABEL_IDS[c] for c in cats.split()]
            cat_off.append(len(cats_flat))
        rules_off[i + 1] = len(dirs)
    np_like = np.zeros(n, np.bool_)
    np_like[[LABEL_IDS["NP"], LABEL_IDS["NML"]]] = True
    return (
        rules_off,
        np.array(dirs, np.int8),
        np.array(cat_off, np.int32),
        np.array(cats_flat, np.int32),
        np_like,
        LABEL_IDS["POS"],
    )


RULES = _compile_rules()


@njit(cache=True)
def _child_label(item, label, tok_label):
    if item >= 0:
        return label[item]
    return tok_label[-(item + 1)]


@njit(cache=True)
def _node_heads(
    label, start, child_off, child_item, post, tok_label, rules_off, rule_dir, cat_off, cats, np_like, pos_label
):
    n_nodes = label.shape[0]
    n_rule_labels = rules_off.shape[0] - 1
    head = np.empty(n_nodes, np.int32)
    for i in range(n_nodes):
        head[i] = start[i]
    for n in post:
        lo = child_off[n]
        hi = child_off[n + 1]
        if lo == hi:
            continue
        lab = label[n]
        pick = -1
        first_dir = LEFT
        if 0 <= lab < n_rule_labels:
            if np_like[lab] and _child_label(child_item[hi - 1], label, tok_label) == pos_label:
                pick = hi - 1
            r0 = rules_off[lab]
            r1 = rules_off[lab + 1]
            if r1 > r0:
                first_dir = rule_dir[r0]
            r = r0
            while pick < 0 and r < r1:
                d = rule_dir[r]
                c0 = cat_off[r]
                c1 = cat_off[r + 1]
                if d == LEFT or d == RIGHT:
                    for c in range(c0, c1):
                        if d == LEFT:
                            for k in range(lo, hi):
                                if _child_label(child_item[k], label, tok_label) == cats[c]:
                                    pick = k
                                    break
                        else:
                            for k in range(hi - 1, lo - 1, -1):
                                if _child_label(child_item[k], label, tok_label) == cats[c]:
                                    pick = k
                                    break
                        if pick >= 0:
                            break
                else:
                    for kk in range(hi - lo):
                        k = lo + kk if d == LEFTDIS else hi - 1 - kk
                        cl = _child_label(child_item[k], label, tok_label)
                        for c in range(c0, c1):
                            if cats[c] == cl:
                                pick = k
                                break
                        if pick >= 0:
                            break
                r += 1
        if pick < 0:
            pick = lo if (first_dir == LEFT or first_dir == LEFTDIS) else hi - 1
        item = child_item[pick]
        head[n] = head[item] if item >= 0 else -(item + 1)
    return head


def node_heads(tree, tok_label):
    """Head token of every node of `tree`; tok_label: per-token POS label ids (-1 unknown)."""
    rules_off, rule_dir, cat_off, cats, np_like, pos_label = RULES
    return _node_heads(
        tree.label,
        tree.start,
        tree.child_off,
        tree.child_item,
        tree.post_order,
        np.asarray(tok_label, np.int32),
        rules_off,
        rule_dir,
        cat_off,
        cats,
        np_like,
        pos_label,
    )


@njit(cache=True)
def fallback_head(s, e, is_stop, is_noun):
    """Head of span [s, e] without a constituent (see module docstring)."""
    pe = e
    for t in range(s + 1, e + 1):
        if is_stop[t]:
            pe = t - 1
            break
    for t in range(pe, s - 1, -1):
        if is_noun[t]:
            return t
    return pe


@njit(cache=True)
def span_nodes_and_heads(m_start, m_end, parent, start, end, tok_parent, node_head, is_stop, is_noun):
    """For each span: the highest node covering exactly that span (-1 none) and its head token
    (the node's head, else `fallback_head`). Pass empty tree arrays when there is no parse."""
    n = m_start.shape[0]
    nodes = np.full(n, -1, np.int32)
    heads = np.empty(n, np.int32)
    have_tree = tok_parent.shape[0] > 0
    for i in range(n):
        s = m_start[i]
        e = m_end[i]
        if have_tree:
            k = tok_parent[s]
            while k >= 0 and start[k] >= s:
                if start[k] == s and end[k] == e:
                    nodes[i] = k
                elif end[k] > e:
                    break
                k = parent[k]
        if nodes[i] >= 0:
            heads[i] = node_head[nodes[i]]
        else:
            heads[i] = fallback_head(s, e, is_stop, is_noun)
    return nodes, heads
