"""Verb forms: a gerund's base form ("scheduling" → "schedule").

Shared by what the customer is understood to ask (language/slots.py) and by the
acknowledgement built from the tools' waiting hints (acknowledge.py).
"""

from __future__ import annotations

from functools import lru_cache

# Verbs whose base form the spelling rules below would get wrong.
_IRREGULAR = {
    "cancelling": "cancel",
    "canceling": "cancel",
    "creating": "create",
    "changing": "change",
    "closing": "close",
    "opening": "open",
    "reviewing": "review",
    "visiting": "visit",
    "listening": "listen",
    "happening": "happen",
    "ordering": "order",
    "entering": "enter",
    "offering": "offer",
    "filtering": "filter",
    "registering": "register",
    "editing": "edit",
    "submitting": "submit",
    "pulling": "pull",
    "calling": "call",
    "filling": "fill",
    "billing": "bill",
    "emailing": "email",
    "refunding": "refund",
    "dialling": "dial",
    "labelling": "label",
    "using": "use",
    "focusing": "focus",
    "limiting": "limit",
    "crediting": "credit",
}
_VOWELS = set("aeiou")
# Doubled final consonants that belong to the base form ("add", "pull", "pass", "buzz").
_KEEP_DOUBLE = set("lsfzd")
# Stem endings after which a consonant-vowel-consonant stem lost a silent e.
_SILENT_E_AFTER = tuple(
    ["at", "ut", "ov", "ak", "ul", "it", "os", "iv", "ur", "ar", "ag", "id", "et", "av", "ot"]
)


@lru_cache(maxsize=512)
def base_form(gerund: str) -> str:
    """'looking' → 'look', 'scheduling' → 'schedule', 'cancelling' → 'cancel'."""
    word = gerund.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not word.endswith("ing") or len(word) <= 4:
        return word
    stem = word[:-3]
    if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
        # "getting" → "get", "running" → "run", but "adding" → "add".
        return stem if stem[-1] in _KEEP_DOUBLE else stem[:-1]
    if stem.endswith(_SILENT_E_AFTER) and (
        (len(stem) >= 3 and stem[-3] not in _VOWELS) or stem.endswith(("eat", "uot"))
    ):
        # A silent e dropped before -ing: "updating", "moving", "scheduling", "writing".
        return stem + "e"
    if stem.endswith(("ng", "rg", "dg", "rc", "nc", "lv", "rv")):
        # "changing", "charging", "judging", "forcing", "solving", "reserving".
        return stem + "e"
    return stem
