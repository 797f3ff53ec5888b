"""ECB+, the corpus of Singh et al.'s Table 2 and Fig. 7 that the workflow cannot make: whether a config
has it, and why not and how to get it when it does not (`Paper.skipped`)."""

import os

ECBPLUS = "Singh et al. Table 2 and Fig. 7 on ECB+ (whole corpus and within topic)"


def ecbplus_available(config):
    """A local ECB+ folder exists, or the user let the workflow fetch the pinned archives."""
    folder = config["crossdoc"]["ecbplus_dir"]
    return (bool(folder) and os.path.isdir(folder)) or bool(config["crossdoc"].get("ecbplus_download", False))


def skipped(config):
    """[(experiment, why, how to enable)]: the ECB+ runs when ECB+ is missing."""
    if ecbplus_available(config):
        return []
    folder = config["crossdoc"]["ecbplus_dir"]
    why = f"no ECB+ folder at crossdoc.ecbplus_dir ({folder})" if folder else "crossdoc.ecbplus_dir is not set"
    how = (
        "set crossdoc.ecbplus_dir to a folder holding ECBplus_xml.tar.xz and "
        "ECBplus_coreference_sentences.csv (the ECB+ release of the cltl/ecbPlus repository, packed so); "
        "or set crossdoc.ecbplus_download: true to fetch the pinned archives into resources/ecbplus/ "
        "(needs the network)"
    )
    return [(ECBPLUS, why, how)]
