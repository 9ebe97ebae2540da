"""Every RuleRef is well formed and quotes the rule text verbatim (or names its ruling)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.base import RuleRef
from companion.games import terra_turrium
from companion.games.terra_turrium import rules
from companion.games.texts import normalise, rule_text

RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings.md"


def test_every_rule_constant_is_in_the_registry():
    constants = [v for v in vars(rules).values() if isinstance(v, RuleRef)]
    assert sorted(r.id for r in constants) == sorted(rules.RULES)
    for rule_id, rule in rules.RULES.items():
        assert rule.id == rule_id


def test_rule_ids_are_stable_dotted_and_prefixed():
    for rule_id in rules.RULES:
        assert re.fullmatch(r"tt(\.[a-z][a-z-]*)+", rule_id), rule_id


def test_every_quote_is_in_the_rule_text():
    text = normalise(rule_text("terra-turrium"))
    quoted = 0
    for rule in rules.RULES.values():
        for quote in re.findall(r"«\s*(.*?)\s*»", rule.paragraph):
            assert normalise(quote) in text, f"{rule.id}: {quote!r} is not in the rule text"
            quoted += 1
    assert quoted >= 20


def test_every_rule_cites_the_text_or_a_ruling():
    # a ruling is either in docs/rulings.md or decided in the package's own docstring
    rulings = RULINGS.read_text(encoding="utf-8").lower() + (terra_turrium.__doc__ or "").lower()
    for rule in rules.RULES.values():
        if rule.paragraph.startswith("Rulings — "):
            topic = rule.paragraph.removeprefix("Rulings — ").split(":")[0].split(",")[0]
            assert topic.strip().lower() in rulings, rule.id
        else:
            assert "«" in rule.paragraph and "»" in rule.paragraph, rule.id
            assert " — " in rule.paragraph, f"{rule.id} names no section"


def test_messages_exist_in_both_languages():
    for rule in rules.RULES.values():
        assert rule.fr and rule.en and rule.fr != rule.en, rule.id
        assert rule.message("en") == rule.en and rule.message("fr") == rule.fr


def test_every_rule_has_its_legal_and_illegal_test():
    """Each rule id has a pair of tests named after it: ``test_<id>__legal`` and
    ``__illegal`` (for the end of the game, ``__met`` / ``__not_met`` and ``__co_winner`` /
    ``__no_co_winner``)."""
    here = Path(__file__).resolve().parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in here.glob("test_tt_*.py"))
    names = set(re.findall(r"^def (test_\w+)\(", source, flags=re.M))
    pairs = (("legal", "illegal"), ("met", "not_met"), ("co_winner", "no_co_winner"))
    for rule_id in rules.RULES:
        stem = "test_" + rule_id.replace(".", "_").replace("-", "_")
        assert any(f"{stem}__{a}" in names and f"{stem}__{b}" in names for a, b in pairs), stem
