"""Every RuleRef is well formed and quotes the rule text verbatim (or names its ruling)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.base import RuleRef
from companion.games.gleebs_and_grues import rules
from companion.games.texts import normalise, rule_text

RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings.md"


def test_every_rule_constant_is_in_the_registry():
    constants = [v for v in vars(rules).values() if isinstance(v, RuleRef)]
    assert sorted(r.id for r in constants) == sorted(rules.RULES)
    for rule_id, rule in rules.RULES.items():
        assert rule.id == rule_id


def test_rule_ids_are_stable_dotted_and_prefixed():
    for rule_id in rules.RULES:
        assert re.fullmatch(r"gg(\.[a-z][a-z-]*)+", rule_id), rule_id


def test_every_quote_is_in_the_rule_text():
    text = normalise(rule_text("gleebs-and-grues"))
    quoted = 0
    for rule in rules.RULES.values():
        quotes = re.findall(r"«\s*(.+?)\s*»", rule.paragraph)
        if rule.paragraph.startswith("Rulings — "):
            assert not quotes, f"{rule.id}: a ruling is not quoted from the text"
            continue
        assert len(quotes) == 1, f"{rule.id} must quote one passage in « »"
        assert normalise(quotes[0]) in text, f"{rule.id}: quote not in the rule text: {quotes[0]}"
        section = rule.paragraph.split(" — ")[0]
        assert section in text, f"{rule.id}: no section {section!r} in the rule text"
        quoted += 1
    assert quoted == len(rules.RULES) - 1


def test_rulings_paragraphs_name_a_ruling_of_this_game():
    assert RULINGS.exists(), f"missing {RULINGS}: the rulings page shipped with the project"
    section = RULINGS.read_text(encoding="utf-8").split("## Gleeb's and Grues")[1].split("\n## ")[0]
    for rule in rules.RULES.values():
        if rule.paragraph.startswith("Rulings — "):
            topic = rule.paragraph.removeprefix("Rulings — ")
            assert topic.lower() in section.lower(), f"{rule.id}: no ruling on {topic!r}"
            assert "No grue lands on a grue or a pinned stack" in section


def test_every_rule_speaks_french_and_english():
    for rule in rules.RULES.values():
        assert rule.fr and rule.en and rule.fr != rule.en
        assert rule.message("en") == rule.en and rule.message("fr") == rule.fr
        assert RuleRef.from_json(rule.to_json()) == rule


def test_every_rule_has_a_legal_and_an_illegal_test_named_for_it():
    folder = Path(__file__).resolve().parent
    names = set()
    for path in folder.glob("test_*.py"):
        names |= set(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")))
    for rule_id in rules.RULES:
        base = "test_" + re.sub(r"[.-]", "_", rule_id)
        for kind in ("__legal", "__illegal"):
            assert any(n.startswith(base + kind) for n in names), f"no {base + kind}* test"
