"""Workflow configuration: JSON-schema validation with defaults and one-line errors.

Snakemake's own `validate` prints the whole config on failure; a user who typed
`corpra:` wants one line naming the key. Defaults from the schema are filled in, so
rules can read every key with plain dict access.
"""

from pathlib import Path

import jsonschema
import yaml

from coreflab.errors import UserError


def _with_defaults(validator_class):
    validate_props = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, sub in properties.items():
                if "default" in sub and name not in instance:
                    instance[name] = _copy(sub["default"])
        yield from validate_props(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _copy(value):
    return yaml.safe_load(yaml.safe_dump(value))


def _describe(error):
    where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(known))
        return f"config key {where + '.' if error.absolute_path else ''}{extra[0]!r} is unknown; expected one of {', '.join(known)}"
    return f"config key {where}: {error.message}{_text_hint(error)}"


def _text_hint(error):
    """Why a number arrived as text: Snakemake reads a mapping given to --config with YAML's
    BaseLoader, which keeps every value inside it a string (`--config 'bk2014={iterations: 25}'`)."""
    if error.validator != "type" or not isinstance(error.instance, str):
        return ""
    try:
        parsed = yaml.safe_load(error.instance)
    except yaml.YAMLError:
        return ""
    if isinstance(parsed, str) or parsed is None:
        return ""
    return (
        " (values inside a mapping given to --config arrive as text; "
        "set this key in a YAML file passed with --configfile instead)"
    )


def overlay(base, over):
    """Snakemake's --configfile overlay: nested mappings merge key by key, other values replace."""
    out = dict(base)
    for k, v in over.items():
        out[k] = overlay(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def check_config(config, schema_path):
    """Validate (and fill defaults into) a config dict; raise UserError with one line."""
    schema = yaml.safe_load(Path(schema_path).read_text())
    cls = _with_defaults(jsonschema.validators.validator_for(schema))
    errors = sorted(cls(schema).iter_errors(config), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        raise UserError(_describe(errors[0]))
    for corpus in config.get("run", {}).get("corpora", []):
        if corpus not in config.get("corpora", {}):
            raise UserError(f"config key run.corpora: {corpus!r} has no entry under 'corpora' (add corpora.{corpus})")
    # a second pass fills defaults inside the corpus entries added above
    for _ in cls(schema).iter_errors(config):
        pass
    check_systems(config)
    return config


def check_systems(config):
    """Every leaderboard system is `string_match` or a configured learner: a misspelled name
    would otherwise plan nothing for it and leave an old leaderboard in place."""
    valid = ["string_match", *sorted(config.get("learners", {}))]
    for name in config.get("systems", []):
        if name not in valid:
            raise UserError(
                f"config key systems: {name!r} is neither string_match nor a configured learner; "
                f"expected one of {', '.join(valid)}"
            )


def check_corpus_folders(config):
    """Fail before any job runs when a corpus to run points at a folder that is not there
    (or, for a user's own CoNLL-2012 release, at none): the same one-line errors the import gives.

    Separate from check_config, which judges the config alone; this looks at the machine."""
    from coreflab.corpus.download import DOWNLOAD_KEY, local_copy
    from coreflab.corpus.readers.conll2012_release import require_release_root

    for name in config.get("run", {}).get("corpora", []):
        local = (config.get("corpora", {}).get(name) or {}).get("local_dir")
        if name == "conll2012":
            require_release_root(local)
        elif name in DOWNLOAD_KEY:
            local_copy(name, local)
