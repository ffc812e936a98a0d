"""What the SCOWL lists are called: the sizes and spellings a table plays, and the names a
family reads for them ("everyday list", "full dictionary", "British spelling").

Its own module so that the settings, the reasons and the loader (:mod:`games.lexicon`)
share one table of sizes and spellings, and so that no screen ever needs a library's name
or a size to tell the family which list ruled.
"""

from __future__ import annotations

#: "The dictionary": SCOWL's "large" size, "words found in most dictionaries". Measured
#: against headwords of standard dictionaries in docs/words.md (tests/test_word_list_size.py).
DEFAULT_SIZE = 70
#: The smaller list a family may choose, named "everyday words" on its screens: SCOWL's
#: recommendation for spell checking, without the rarer words a desk dictionary also has.
EVERYDAY_SIZE = 60
#: The largest size whose words a reason offers as a house word: SCOWL's 95 "contains just
#: about every English word in existence and then some", misspellings among them.
RARE_WORDS_SIZE = 80
#: A family table accepts any spelling a standard dictionary of its English has: by
#: default both American and British spellings (COLOR and COLOUR). See docs/rulings.md.
DEFAULT_VARIANT = "both"
#: The spelling settings: one of SCOWL's spelling categories, or "both" (American + British).
VARIANTS: tuple[str, ...] = ("both", "american", "british", "british_z", "canadian", "australian")
#: The SCOWL spelling categories each setting combines with ``english``: its own spelling and
#: the variants a dictionary of that English lists beside it. SCOWL's ``variant_1`` lists
#: hold the variants "considered almost equal" (JUDGEMENT, CATALOGUE; GAOL, YOGHURT in the
#: British one); "both" adds the ``variant_2`` lists too, "generally considered acceptable"
#: (HOOKA, AMEER, AY), which a one-spelling table leaves out because they carry the other
#: English's spellings (THEATRE in the American one). ``variant_3``, "seldom used and may
#: not even be considered correct", is never a dictionary list. See docs/words.md.
SPELLINGS: dict[str, tuple[str, ...]] = {
    "both": ("american", "british", "variant_1", "british_variant_1", "variant_2", "british_variant_2"),
    "american": ("american", "variant_1"),
    "british": ("british", "british_variant_1"),
    "british_z": ("british_z", "british_variant_1"),
    "canadian": ("canadian", "canadian_variant_1"),
    "australian": ("australian", "australian_variant_1"),
}
_SPELLING_NAMES = {
    "british_z": "British (Oxford -ize)",
    "variant_1": "variant",
    "variant_2": "variant",
    "variant_3": "rare variant",
    "british_variant_1": "British variant",
    "british_variant_2": "British variant",
    "canadian_variant_1": "Canadian variant",
    "canadian_variant_2": "Canadian variant",
    "australian_variant_1": "Australian variant",
    "australian_variant_2": "Australian variant",
}

def list_name(size: int) -> str:
    """What a family calls the list of this size: 'everyday list', 'full dictionary' or
    'list of rare words' — never a library's name or a number (docs/words.md). A technician's
    size below the everyday list's is a 'small list'."""
    if size < EVERYDAY_SIZE:
        return "small list"
    if size == EVERYDAY_SIZE:
        return "everyday list"
    if size <= DEFAULT_SIZE:
        return "full dictionary"
    if size <= RARE_WORDS_SIZE:
        return "list of rare words"
    return "list of nearly every word"


def spelling_name(spelling: str) -> str:
    """How a reason names a SCOWL spelling list: 'British', 'variant', 'Canadian variant'."""
    return _SPELLING_NAMES.get(spelling, spelling.capitalize())
