"""Errors raised by the scoring engine.

Every error carries a machine-readable ``code`` (stable, documented in
docs/scoring.md) and, where one input is at fault, the ``field`` that names it in
the JSON interface's notation (``outcome.wins[0].fu``).

>>> err = ScoringError("fu_not_possible", "1 han 20 fu is not a hand", field="fu")
>>> err.as_dict()
{'code': 'fu_not_possible', 'message': '1 han 20 fu is not a hand', 'field': 'fu'}
"""

from __future__ import annotations


class CodedError(Exception):
    """A refusal with a stable ``code``, its ``message`` and the ``field`` at
    fault: what the engine's errors carry, and what an application's own
    refusals can carry by deriving from it (Tenbou's ``ServiceError`` does)."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


class ScoringError(CodedError, ValueError):
    """A request the rules cannot honour; nothing was computed."""

    def with_prefix(self, prefix: str) -> ScoringError:
        """The same error with its field placed under ``prefix``.

        >>> ScoringError("x", "m", field="fu").with_prefix("outcome.wins[0]").field
        'outcome.wins[0].fu'
        """
        if self.field is None:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        return type(self)(self.code, self.message, field=field)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"


class RulesError(ScoringError):
    """A ruleset that cannot exist (unknown key, uma not summing to zero...)."""


class HandError(ScoringError):
    """A hand's value cannot be computed (impossible han and fu, bad tiles...)."""


class GameError(ScoringError):
    """A hand or an ending that does not fit the game so far."""
