"""Posts for the L3M 2014 document-clustering tests: a synthetic author-clustering problem, written as a
20 Newsgroups bydate folder when a test goes through the command (a helper module, so that no test
file imports another)."""

import numpy as np

from coreflab.papers.l3m2014.newsgroups import Post


def synthetic_author_sets(n_sets=6, size=40, prolific=8, share=0.5, own=0.6, seed=0):
    """Item sets (one per newsgroup) of `size` posts: a `share` of them by `prolific` authors who post in
    every set, each with a vocabulary of its own, the rest by authors who post once (as most 20
    Newsgroups authors); a body draws `own`·20 words from its author's vocabulary and the rest from 300
    words everyone uses. Every post alone is a strong baseline here, as on 20 Newsgroups."""
    rng = np.random.default_rng(seed)
    shared = [f"common{k}" for k in range(300)]
    sets, number = [], 0
    n_own = int(round(20 * own))
    for s in range(n_sets):
        items = []
        for k in range(size):
            number += 1
            if rng.random() < share:
                a = int(rng.integers(prolific))
                author, words = f"a{a}@x.org", [f"voc{a}_{j}" for j in range(12)]
            else:
                author, words = f"once{number}@x.org", [f"solo{number}_{j}" for j in range(12)]
            body = list(rng.choice(words, size=n_own)) + list(rng.choice(shared, size=20 - n_own))
            items.append(Post(f"comp.group{s}", 1000 + number, author, f"topic {k % 5}", " ".join(body)))
        sets.append(items)
    return sets


def write_bydate(sets, root):
    """`sets` as a 20 Newsgroups bydate folder (alternate posts in the train and test parts, as a group's
    article numbers interleave there); `load_posts` and `item_sets(posts, size)` give them back."""
    for items in sets:
        for k, post in enumerate(items):
            folder = root / ("20news-bydate-train" if k % 2 == 0 else "20news-bydate-test") / post.group
            folder.mkdir(parents=True, exist_ok=True)
            (folder / str(post.number)).write_text(
                f"From: {post.author}\nSubject: {post.thread}\nLines: 1\n\n{post.body}\n", encoding="latin-1"
            )
    return root
