"""20 Newsgroups, the data of L3M's Table 2 that the workflow cannot make: whether a config runs it,
and why not and how to enable it when it does not (`Paper.skipped`)."""

import os

NEWSGROUPS = "L3M Table 2 (20 Newsgroups author and thread clustering)"


def doccluster_enabled(config):
    local = config["doccluster"]["local_dir"]
    setting = config["doccluster"]["enabled"]
    return setting is True or (setting == "auto" and bool(local) and os.path.exists(local))


def newsgroups_missing(config):
    """(why 20 Newsgroups is not used, how to enable it), for a config where `doccluster_enabled` is false."""
    local = config["doccluster"]["local_dir"]
    why = (
        "doccluster.enabled is false"
        if config["doccluster"]["enabled"] is False
        else f"no 20 Newsgroups copy at doccluster.local_dir ({local})"
        if local
        else "doccluster.local_dir is not set"
    )
    how = (
        "set doccluster.local_dir to a folder holding 20news-bydate-train/ and 20news-bydate-test/ "
        "(or 20news-bydate.tar.xz); or set doccluster.enabled: true with local_dir: null to let "
        "scikit-learn download it into its data home (needs the network)"
    )
    return why, how


def skipped(config):
    """[(experiment, why, how to enable)]: Table 2 when 20 Newsgroups is missing."""
    return [] if doccluster_enabled(config) else [(NEWSGROUPS, *newsgroups_missing(config))]
