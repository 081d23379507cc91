"""A message's characters as the customer meant them: what no one sees taken out, and
digits, signs and letters that only look like the plain ones read as those.

Text pasted or typed on a phone may carry characters that change nothing to the eye
and everything to a reader: a zero-width space inside an address ("maria\\u200b.new@…"
was read as the address ".new@…", the part before it dropped), a direction mark, a
soft hyphen; digits written full-width ("４１５…") or in another script ("٤١٥…"), sent to
the CRM as they were; an "＠" of full width; a Cyrillic "о" inside a Latin word ("buy
grоceries" was added beside the "Buy groceries" on the list, which it is to the eye
and the ear; "mаria.new@…" was read as the address "ria.new@…"). They are read as what
they show.
"""

from __future__ import annotations

import re
import unicodedata

# Cyrillic and Greek letters drawn as Latin ones: read as those inside a word that holds
# Latin letters too (a word wholly of their script is left as it is).
_LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝӏАВЕКМНОРСТХІЈЅαοριυνκτχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdqwlABEKMHOPCTXIJSaopiuvktxABEZHIKMNOPTYX",
)
_LETTERS = re.compile(r"[^\W\d_]+")


def _as_latin(word: re.Match[str]) -> str:
    letters = word.group(0)
    if letters.isascii() or not any("a" <= ch.lower() <= "z" for ch in letters):
        return letters
    return letters.translate(_LOOK_ALIKES)


def _plain(ch: str) -> str:
    if "\uff01" <= ch <= "\uff5e":  # full width: "＠" is "@", "Ａ" is "A"
        return chr(ord(ch) - 0xFEE0)
    if ch.isdecimal():  # "４", "٤": another script's digit is the digit
        return str(unicodedata.decimal(ch))
    category = unicodedata.category(ch)
    if category == "Cf":  # zero-width, direction marks, soft hyphen: unseen
        return ""
    if category == "Zs":  # a space of another width is a space
        return " "
    return ch


def readable(text: str) -> str:
    """`text` with invisible (format) characters taken out, full-width signs and other
    scripts' digits read as the plain ones, other spaces as a space, and look-alike
    letters inside a Latin word read as the Latin ones. (Not NFKC: "10²" is no "102".)
    Plain ASCII text is given back as it is."""
    if text.isascii():
        return text
    plain = "".join(ch if ch.isascii() else _plain(ch) for ch in text)
    return plain if plain.isascii() else _LETTERS.sub(_as_latin, plain)
