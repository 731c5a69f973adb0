"""Emulated testbed: namespaces, a user-space link emulator and real TCP/SCTP applications."""
