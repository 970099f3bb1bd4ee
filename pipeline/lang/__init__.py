"""The language service every stage asks: per-language data with English fallback,
language tags, folds, tokens, lemmas and the language identifier.

Data lives beside the code (`<code>/<name>.yaml` per language, `<name>.yaml` shared), the
engines (spaCy, pymorphy3, lingua) are imported on first use only.
"""

from .identify import alphabet_language, detector, min_letters, mixed_language
from .service import (
    ENGLISH,
    LANG_DIR,
    UNDETERMINED,
    Notation,
    data,
    data_languages,
    fold,
    has_data,
    known_languages,
    lemmatised,
    notation,
    primary,
    shared,
    shared_path,
    tag,
)
from .words import (
    lemma,
    lemmas,
    longest,
    morph,
    nlp,
    parses,
    phrase_matcher,
    singular,
    tokenize,
    word_forms,
)

__all__ = [
    "ENGLISH",
    "LANG_DIR",
    "UNDETERMINED",
    "Notation",
    "alphabet_language",
    "data",
    "data_languages",
    "detector",
    "fold",
    "has_data",
    "known_languages",
    "lemma",
    "lemmas",
    "lemmatised",
    "longest",
    "min_letters",
    "mixed_language",
    "morph",
    "nlp",
    "notation",
    "parses",
    "phrase_matcher",
    "primary",
    "shared",
    "shared_path",
    "singular",
    "tag",
    "tokenize",
    "word_forms",
]
