"""The worked examples in the docs are the code's own answers."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from games.chain import chain_next, move_canonical_json

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_hash_chain_example_in_the_api_doc_recomputes():
    text = (DOCS / "api.md").read_text()
    example = re.search(r"Worked example \(deal 1, seed `([0-9a-f]{64})`\)", text)
    seed = example.group(1)
    table = re.findall(r"^\| [^|]+ \| `([^`]+)` \|$", text[example.end() :], flags=re.MULTILINE)
    commitment, json_1, chain_1, json_2, chain_2 = table[:5]
    assert commitment == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert json_1 == move_canonical_json(deal_number=1, seq=1, seat=0, action="play", cards=["3C"])
    assert json_2 == move_canonical_json(deal_number=1, seq=2, seat=1, action="pass", cards=[])
    assert json.loads(json_2)["cards"] == []
    # The doc's recipe, as an auditor would write it from the text alone.
    assert chain_1 == hashlib.sha256((commitment + json_1).encode()).hexdigest()
    assert chain_2 == hashlib.sha256((chain_1 + json_2).encode()).hexdigest()
    assert chain_2 == chain_next(chain_next(commitment, json_1), json_2)


def test_the_error_table_in_the_api_doc_is_the_error_codes():
    from pusoy_api.domain_errors import ErrorCode

    text = (DOCS / "api.md").read_text()
    section = text[text.index("## Errors") : text.index("A move is checked in this order")]
    documented = {}
    for status, codes in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", section, flags=re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", codes):
            documented[code] = int(status)
    assert documented == {code.value: code.status for code in ErrorCode}
