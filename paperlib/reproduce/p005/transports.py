"""The three transport families of paper 005, named once for its models and its real stacks.

Each family is one connection carrying every object of the page, all requested at once:

=========  =====================================  ==========================  ===========================
name       stack                                  handshake (``handshake``)   a lost packet blocks
=========  =====================================  ==========================  ===========================
``h2``     HTTP/2 over TLS 1.3 over TCP           ``tcp_tls13`` (h = 2)       every object (one ordered
                                                                              byte stream: ``"shared"``)
``h3``     HTTP/3 over QUIC (TLS 1.3 inside)      ``quic`` (h = 1)            its own stream only
                                                                              (``"independent"``)
``sctp``   request/response over SCTP streams     ``sctp`` (h = 1)            its own stream only
           (one object per stream, no TLS)                                    (``"independent"``)
=========  =====================================  ==========================  ===========================

The blocking readings are :data:`paperlib.models.page_transfer.BLOCKINGS` (``docs/reconstruction-005.md``
Sec. 4): HTTP/2 is the papers' pipelined TCP (papers 000 and 002), HTTP/3 and SCTP their multi-streamed
SCTP. The handshake round trips h come from ``data/005/handshake_rtts.csv`` through
:func:`paperlib.models.handshake.handshake_rtts`.

The page the real stacks carry, and the one the model curves beside them use, is :data:`REAL_STACK_PAGE`:
the median desktop homepage of the Web Almanac 2024 built by :func:`paperlib.models.web_page.median_page`
(71 objects), with the Almanac's KB read as 1000 bytes.
"""

from __future__ import annotations

from paperlib import validate
from paperlib.models import web_page

#: The transport families, in the order tables and figures show them.
PROTOCOLS = ("h2", "h3", "sctp")
#: Each family's handshake, a key of :data:`paperlib.models.handshake.STACKS`.
HANDSHAKE_STACK = {"h2": "tcp_tls13", "h3": "quic", "sctp": "sctp"}
#: Each family's reading of a loss, a value of :data:`paperlib.models.page_transfer.BLOCKINGS`.
BLOCKING = {"h2": "shared", "h3": "independent", "sctp": "independent"}
#: What each family is, in a few words (tables, legends, ledger reasons).
LABEL = {"h2": "HTTP/2 over TLS 1.3 over TCP", "h3": "HTTP/3 over QUIC", "sctp": "SCTP streams"}
#: The page of the real stacks: (device, page type, bytes per KB) for :func:`web_page.median_page`.
REAL_STACK_PAGE = ("desktop", "homepage", 1000)


def check_protocol(protocol: str) -> str:
    """Return ``protocol`` if it is one of :data:`PROTOCOLS`, else raise a ParameterError naming them."""
    validate.choice("protocol", protocol, PROTOCOLS)
    return protocol


def real_stack_page() -> web_page.WebPage:
    """Return the page the real stacks carry (:data:`REAL_STACK_PAGE`)."""
    device, page_type, kilo = REAL_STACK_PAGE
    return web_page.median_page(device, page_type, kilo=kilo)
