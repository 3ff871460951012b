"""The TwiML answer is written as Twilio's library writes it, byte for byte."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from twilio.twiml.messaging_response import MessagingResponse

from bot.channels.twilio.webhook import twiml
from bot.i18n.public.sms_fit import one_text
from bot.support.dlt import PART


def by_the_library(text: str | None) -> bytes:
    response = MessagingResponse()
    if text:
        response.message(one_text(text))
    return str(response).encode("utf-8", "xmlcharrefreplace")


@example("\ud800 a lone surrogate")
@given(
    st.one_of(
        st.none(),
        st.text(),
        st.lists(
            st.sampled_from(["&", "<", ">", '"', "'", "]]>", "ക", "Rs 2,351", PART, "\n"])
        ).map("".join),
    )
)
def test_the_answer_is_the_libraries_for_any_text(text: str | None) -> None:
    response = twiml(text)
    assert response.body == by_the_library(text)
    assert response.media_type == "application/xml"


def test_an_answer_in_parts_is_one_message_a_part_a_line() -> None:
    body = bytes(twiml(f"Case KNM-1 & <more>{PART}Rs 351 a day").body).decode()
    assert body == (
        '<?xml version="1.0" encoding="UTF-8"?><Response><Message>'
        "Case KNM-1 &amp; &lt;more&gt;\nRs 351 a day</Message></Response>"
    )
    assert bytes(twiml(None).body).decode() == '<?xml version="1.0" encoding="UTF-8"?><Response />'
