# coreflab: re-running structured-prediction coreference papers end to end.
# Rules live in workflow/rules/*.smk; helper functions only in workflow/rules/common.smk.
# Usage: `snakemake --cores 2` (embedded synthetic corpus) or
#        `snakemake --cores 2 --configfile config/<corpus>.yaml`.

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        all_targets,
