"""Tests of paperlib.reproduce.p005.transports: the families' names, handshakes and blocking readings."""

import pytest

from paperlib.models import handshake, page_transfer
from paperlib.reproduce.p005 import transports
from paperlib.validate import ParameterError


def test_every_family_has_a_known_handshake_and_blocking():
    for protocol in transports.PROTOCOLS:
        assert transports.HANDSHAKE_STACK[protocol] in handshake.STACKS
        assert transports.BLOCKING[protocol] in page_transfer.BLOCKINGS
        assert transports.LABEL[protocol]


def test_http2_shares_one_stream_and_the_others_do_not():
    # paper 002: pipelined TCP = one ordered byte stream; SCTP (and QUIC) streams are independent
    assert transports.BLOCKING == {"h2": "shared", "h3": "independent", "sctp": "independent"}


def test_the_real_stack_page_is_the_median_desktop_homepage():
    page = transports.real_stack_page()
    # requests_per_page.csv: the desktop median is 71 requests
    assert page.objects == 71


def test_an_unknown_protocol_is_named():
    with pytest.raises(ParameterError, match="protocol"):
        transports.check_protocol("h1")
