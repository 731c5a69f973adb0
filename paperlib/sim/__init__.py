"""Packet-level simulations (ns-3). Each module exposes ``simulate(params, seed) -> dict`` for the sweep runner."""
