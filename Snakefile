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
include: "workflow/rules/features.smk"
include: "workflow/rules/learn.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/bk2014.smk"
include: "workflow/rules/selection.smk"
include: "workflow/rules/cc2007.smk"
include: "workflow/rules/l3m2014.smk"
include: "workflow/rules/mela.smk"
include: "workflow/rules/crossdoc.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/bench.smk"


onsuccess:
    for line in optional_data.announcement(optional_data.skipped_experiments(config)):
        print(line, file=sys.stderr)


rule all:
    default_target: True
    input:
        all_targets,


rule bk2014:
    input:
        paper_targets("bk2014"),


rule cc2007:
    input:
        paper_targets("cc2007"),


rule l3m2014:
    input:
        paper_targets("l3m2014"),


rule hm2017:
    input:
        paper_targets("hm2017"),


rule singh2011:
    input:
        paper_targets("singh2011"),


rule papers:
    input:
        [paper_targets(p) for p in PAPERS],
