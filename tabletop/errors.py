"""Errors a user can act on.

Every problem with a user's input (a scenario file, an action file, a command line) is raised as a
:class:`UserError` holding one line per problem; the command line prints them and exits with code 2,
without a traceback.
"""

from __future__ import annotations


class UserError(ValueError):
    """A problem with a user's input: one message line per problem."""

    def __init__(self, lines: str | list[str]) -> None:
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        super().__init__("\n".join(self.lines))
