"""Errors raised by the scoring engine.

Every error carries a machine-readable ``code`` (stable, documented in
docs/scoring.md) and, where one input is at fault, the ``field`` that names it in
the JSON interface's notation (``outcome.wins[0].fu``). A code that covers
several rules (``fu_not_possible``) adds a ``detail``, one code per rule, so a
caller can word each one (in another language, say) without parsing the message.

>>> err = ScoringError("fu_not_possible", "20 fu is only a pinfu tsumo, never a ron", field="fu", detail="fu_20_ron")
>>> err.as_dict()
{'code': 'fu_not_possible', 'message': '20 fu is only a pinfu tsumo, never a ron', 'field': 'fu', 'detail': 'fu_20_ron'}
"""

from __future__ import annotations


class CodedError(Exception):
    """A refusal with a stable ``code``, its ``message`` and the ``field`` at
    fault: what the engine's errors carry, and what an application's own
    refusals can carry by deriving from it (Tenbou's ``ServiceError`` does).
    ``detail``: which rule of a code that covers several (None: the code says it)."""

    def __init__(self, code: str, message: str, *, field: str | None = None, detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.detail = detail

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.detail is not None:
            out["detail"] = self.detail
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
        return type(self)(self.code, self.message, field=field, detail=self.detail)

    def __repr__(self) -> str:
        detail = "" if self.detail is None else f", detail={self.detail!r}"
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r}{detail})"


class RulesError(ScoringError):
    """A ruleset that cannot exist (unknown key, uma not summing to zero...)."""


class HandError(ScoringError):
    """A hand's value cannot be computed (impossible han and fu, bad tiles...)."""


class GameError(ScoringError):
    """A hand or an ending that does not fit the game so far."""
