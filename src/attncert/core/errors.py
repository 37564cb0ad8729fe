"""The exception root of attncert. User mistakes raise messages that name the offending value."""


class AttncertError(Exception):
    """Root of every error attncert raises on purpose."""


class UsageError(AttncertError):
    """A command-line or API call that is malformed: unknown selector, bad option. Exit code 2."""


class InvalidParameter(UsageError):
    """A parameter outside the range its theorem allows; the message names the value and the bound."""


class UnknownSelector(UsageError):
    """A selector that matches no family or obligation."""


class BackendUnavailable(AttncertError):
    """An optional backend (z3, cvc5, python-flint, torch) is not installed."""


class NotExact(AttncertError):
    """An expression has no exact rational value (it contains exp or log of a non-trivial argument)."""


class ExprError(AttncertError):
    """A malformed expression tree (unknown operator, float constant, wrong arity)."""


class CertificateError(AttncertError):
    """A certificate file that cannot be read or written."""
