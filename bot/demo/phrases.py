"""What the people of the demo type, in each of the four languages.

The command words come from ``bot.support.words`` (the same tables the parser reads); the
kinds of cattle are words of the sample configuration; names, places and
descriptions are written here, as a keeper, an officer and an owner of Kunnamangalam
would write them in that language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.support.languages import LANGUAGES
from bot.support.words import CONNECTIVES, KEYWORDS

__all__ = ["LANGUAGES", "Phrases", "phrases"]


@dataclass(frozen=True, slots=True)
class Phrases:
    """The free text of the story in one language."""

    lang: str
    keeper: str  # the pound-keeper's name on Telegram
    officer: str  # the secretary of the panchayat, on Telegram
    cow: str  # the words of the kinds in the one-line SEIZE
    place: str  # the place of seizure
    owner: str  # "name, residence" of the owner of the cow
    cow_looks: str  # the description of the cow (s.7)
    pair_looks: str  # the description of the buffalo and the goat (s.7)
    seizer: str  # "name, residence" of the one who seized them (s.7)
    find: str  # what the owner searches for, for a neighbour
    # Where the beat of drum was made (s.13(2)): the village, then the market place.
    drum_at: str
    goat_buyer: str  # name, residence (s.18)
    buffalo_buyer: str

    def word(self, command: str) -> str:
        """The first keyword of ``command`` in this language (``DUES``, ``കുടിശ്ശിക``)."""
        return KEYWORDS[command][self.lang][0]

    def joiner(self, connective: str) -> str:
        """The connecting word ``at``, ``owner``, ``on`` or ``to`` in this language."""
        return CONNECTIVES[connective][self.lang][0]


_PHRASES: Final = {
    "en": Phrases(
        lang="en",
        keeper="Velayudhan",
        officer="Sreeja",
        cow="cow",
        place="Kunnamangalam market",
        owner="Kunhammed, Chathamangalam",
        cow_looks="brown cow, white star on the forehead",
        pair_looks="black buffalo with a cut left ear; brown goat",
        seizer="Ravi, Kunnamangalam",
        find="buffalo Kunnamangalam",
        drum_at="Kunnamangalam, Kunnamangalam market",
        goat_buyer="Ayesha, Chathamangalam",
        buffalo_buyer="Mammu, Pathimangalam",
    ),
    "ml": Phrases(
        lang="ml",
        keeper="വേലായുധൻ",
        officer="ശ്രീജ",
        cow="പശു",
        place="കുന്ദമംഗലം ചന്ത",
        owner="കുഞ്ഞമ്മദ്, ചാത്തമംഗലം",
        cow_looks="തവിട്ടുനിറമുള്ള പശു, നെറ്റിയിൽ വെള്ളപ്പുള്ളി",
        pair_looks="ഇടത്തെ ചെവി മുറിഞ്ഞ കറുത്ത എരുമ; തവിട്ടുനിറമുള്ള ആട്",
        seizer="രവി, കുന്ദമംഗലം",
        find="എരുമ കുന്ദമംഗലം",
        drum_at="കുന്ദമംഗലം, കുന്ദമംഗലം ചന്ത",
        goat_buyer="ആയിഷ, ചാത്തമംഗലം",
        buffalo_buyer="മമ്മു, പതിമംഗലം",
    ),
    "ta": Phrases(
        lang="ta",
        keeper="வேலாயுதன்",
        officer="ஸ்ரீஜா",
        cow="பசு",
        place="குன்னமங்கலம் சந்தை",
        owner="குஞ்ஞம்மது, சாத்தமங்கலம்",
        cow_looks="பழுப்பு நிறப் பசு, நெற்றியில் வெள்ளைப் புள்ளி",
        pair_looks="இடது காது வெட்டப்பட்ட கருப்பு எருமை; பழுப்பு ஆடு",
        seizer="ரவி, குன்னமங்கலம்",
        find="எருமை குன்னமங்கலம்",
        drum_at="குன்னமங்கலம், குன்னமங்கலம் சந்தை",
        goat_buyer="ஆயிஷா, சாத்தமங்கலம்",
        buffalo_buyer="மம்மு, பதிமங்கலம்",
    ),
    "kn": Phrases(
        lang="kn",
        keeper="ವೇಲಾಯುಧನ್",
        officer="ಶ್ರೀಜಾ",
        cow="ಹಸು",
        place="ಕುನ್ನಮಂಗಲಂ ಸಂತೆ",
        owner="ಕುಞ್ಞಮ್ಮದ್, ಚಾತ್ತಮಂಗಲಂ",
        cow_looks="ಕಂದು ಬಣ್ಣದ ಹಸು, ಹಣೆಯ ಮೇಲೆ ಬಿಳಿ ಚುಕ್ಕೆ",
        pair_looks="ಎಡ ಕಿವಿ ಕತ್ತರಿಸಿದ ಕಪ್ಪು ಎಮ್ಮೆ; ಕಂದು ಮೇಕೆ",
        seizer="ರವಿ, ಕುನ್ನಮಂಗಲಂ",
        find="ಎಮ್ಮೆ ಕುನ್ನಮಂಗಲಂ",
        drum_at="ಕುನ್ನಮಂಗಲಂ, ಕುನ್ನಮಂಗಲಂ ಸಂತೆ",
        goat_buyer="ಆಯಿಷಾ, ಚಾತಮಂಗಲಂ",
        buffalo_buyer="ಮಮ್ಮು, ಪತಿಮಂಗಲಂ",
    ),
}


def phrases(lang: str) -> Phrases:
    """The phrases of ``lang`` (one of ``LANGUAGES``)."""
    return _PHRASES[lang]
