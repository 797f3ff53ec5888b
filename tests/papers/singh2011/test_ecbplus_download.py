"""ECB+ fetched from its pinned archives reads exactly like a packed local copy; offline is one line.

Why (issue 17): a fresh clone without the optional folder skipped Singh et al.'s ECB+ parts; the user
can now let the workflow fetch them (`crossdoc.ecbplus_download: true`).
"""

import io
import lzma
import tarfile
import urllib.error

import numpy as np
import pytest

from coreflab.errors import UserError
from coreflab.papers.singh2011 import optional_data
from coreflab.papers.singh2011.ecbplus import read_ecbplus

SENTENCES = "Topic,File,Sentence Number\n1,1ecb,0\n1,2ecbplus,0\n"


def _doc(words, name_at, instance):
    tokens = "".join(f'<token t_id="{i + 1}" sentence="0">{w}</token>' for i, w in enumerate(words))
    return (
        f'<Document doc_name="x">{tokens}<Markables>'
        f'<HUMAN_PART_PER m_id="5"><token_anchor t_id="{name_at}"/></HUMAN_PART_PER>'
        f'<ACTION_OCCURRENCE m_id="6"><token_anchor t_id="1"/></ACTION_OCCURRENCE></Markables>'
        f'<Relations><CROSS_DOC_COREF r_id="1" note="{instance}"><source m_id="5"/><target m_id="99"/>'
        f"</CROSS_DOC_COREF></Relations></Document>"
    )


DOCS = {
    "ECB+/1/1_1ecb.xml": _doc(["Smith", "resigned", "from", "the", "bank"], 1, "HUM1"),
    "ECB+/1/1_2ecbplus.xml": _doc(["bank", "chief", "Smith", "quits", "today"], 3, "HUM1"),
}


def _add(tar, name, text):
    data = text.encode("utf-8")
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _fake_fetch(url, dest):
    """A GitHub tarball of the pinned commit: top folder <repo>-<commit>/ then the repository's paths."""
    with tarfile.open(dest, "w:gz") as tar:
        if "ECB-parser" in url:
            for name, text in DOCS.items():
                _add(tar, f"ECB-parser-pin/{name}", text)
            _add(tar, "ECB-parser-pin/README.md", "parser")
        else:
            _add(tar, "ecbPlus-pin/ECB+_LREC2014/ECBplus_coreference_sentences.csv", SENTENCES)
            _add(tar, "ecbPlus-pin/README.md", "ecb+")


def _packed_copy(folder):
    folder.mkdir()
    with lzma.open(folder / "ECBplus_xml.tar.xz", "wb") as xz, tarfile.open(fileobj=xz, mode="w") as tar:
        for name, text in DOCS.items():
            _add(tar, name, text)
    (folder / "ECBplus_coreference_sentences.csv").write_text(SENTENCES)
    return folder


def test_downloaded_folder_reads_like_the_packed_copy(tmp_path):
    fetched = read_ecbplus(None, download=True, resources_dir=tmp_path / "resources", fetch=_fake_fetch)
    packed = read_ecbplus(_packed_copy(tmp_path / "shared"))
    assert len(fetched) == 2 and fetched.string_names == packed.string_names == ["smith"]
    for field in ("strings", "gold", "doc", "topic"):
        assert np.array_equal(getattr(fetched, field), getattr(packed, field))
    assert (fetched.X != packed.X).nnz == 0
    assert (tmp_path / "resources" / "ecbplus" / ".complete").is_file()


def test_offline_download_is_one_line_naming_both_ways(tmp_path):
    def offline(url, dest):
        raise urllib.error.URLError("no network")

    with pytest.raises(UserError) as err:
        read_ecbplus(None, download=True, resources_dir=tmp_path, fetch=offline)
    message = str(err.value)
    assert "\n" not in message and "local_dir" in message and "no network" in message
    assert not (tmp_path / "ecbplus").exists()  # nothing half written


def test_without_a_folder_or_download_the_error_names_the_switch(tmp_path):
    with pytest.raises(UserError, match="ecbplus_download: true"):
        read_ecbplus(str(tmp_path / "missing"))


def test_download_switch_counts_as_available():
    config = {"crossdoc": {"ecbplus_dir": None, "ecbplus_download": True}, "run": {"papers": ["singh2011"]}}
    assert optional_data.ecbplus_available(config)
    config["crossdoc"]["ecbplus_download"] = False
    assert not optional_data.ecbplus_available(config)
