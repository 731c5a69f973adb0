"""Emulated testbed: real Linux TCP and usrsctp between network namespaces through a user-space link emulator.

Modules: :mod:`.build` (C compiled at set-up), :mod:`.netns` (namespaces, TUN devices, teardown),
:mod:`.tcp_settings` (kernel TCP pinned per namespace and route), :mod:`.apps` (the TCP/SCTP
request/response application), :mod:`.accuracy` (the emulator measured), :mod:`.experiments` (the
papers' runs through the sweep runner).
"""
