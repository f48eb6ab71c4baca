"""Helpers shared by the test folders: boards, states, pictures, paths (import as ``support.x``)."""
