"""Experiments that need data the workflow cannot make: which run, which are skipped and why.

20 Newsgroups (L3M Table 2) and ECB+ (Singh et al. Table 2 and Fig. 7) are not embedded.
The workflow plans them when their folders exist; otherwise it leaves them out — and says so
at the end of the run and in the report, with the ways to enable each, instead of silently
printing a shorter table.
"""

import os

NEWSGROUPS = "L3M Table 2 (20 Newsgroups author and thread clustering)"
ECBPLUS = "Singh et al. Table 2 and Fig. 7 on ECB+ (whole corpus and within topic)"


def doccluster_enabled(config):
    local = config["doccluster"]["local_dir"]
    setting = config["doccluster"]["enabled"]
    return setting is True or (setting == "auto" and bool(local) and os.path.exists(local))


def ecbplus_available(config):
    """A local ECB+ folder exists, or the user let the workflow fetch the pinned archives."""
    folder = config["crossdoc"]["ecbplus_dir"]
    return (bool(folder) and os.path.isdir(folder)) or bool(config["crossdoc"].get("ecbplus_download", False))


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


def skipped_experiments(config):
    """[(experiment, why, how to enable)] for the configured papers whose optional data is missing."""
    papers = config["run"]["papers"]
    out = []
    if "l3m2014" in papers and not doccluster_enabled(config):
        out.append((NEWSGROUPS, *newsgroups_missing(config)))
    if "singh2011" in papers and not ecbplus_available(config):
        folder = config["crossdoc"]["ecbplus_dir"]
        why = f"no ECB+ folder at crossdoc.ecbplus_dir ({folder})" if folder else "crossdoc.ecbplus_dir is not set"
        out.append(
            (
                ECBPLUS,
                why,
                "set crossdoc.ecbplus_dir to a folder holding ECBplus_xml.tar.xz and "
                "ECBplus_coreference_sentences.csv (the ECB+ release of the cltl/ecbPlus repository, packed so); "
                "or set crossdoc.ecbplus_download: true to fetch the pinned archives into resources/ecbplus/ "
                "(needs the network)",
            )
        )
    return out


def announcement(skipped):
    """The lines printed at the end of a run."""
    if not skipped:
        return []
    lines = [f"coreflab: {len(skipped)} experiment(s) skipped for missing data (see results/skipped_experiments.md):"]
    for name, why, how in skipped:
        lines.append(f"  - {name}: {why}. To run it: {how}.")
    return lines


__all__ = ["doccluster_enabled", "ecbplus_available", "skipped_experiments", "announcement"]
