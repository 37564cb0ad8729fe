from attncert.core.claims import Obligation, Var, claim
from attncert.core.expr import exp, log, var
from attncert.core.families import family

x, y = var("x"), var("y")  # a user's own paper: three claims, stated in a few lines
R = [Var("x", "real"), Var("y", "real")]
FAMILY = family("mine", "mypaper", "three claims of my own", [
    Obligation("mine.square", "mypaper", "eq. (1)", "x^2 >= x", claim([Var("x", "real")], [], x * x >= x), ("smt", "search")),
    Obligation("mine.amgm", "mypaper", "eq. (2)", "x^2 + y^2 >= 2xy", claim(R, [], x * x + y * y >= 2 * x * y), ("smt",)),
    Obligation("mine.explog", "mypaper", "eq. (3)", "log(exp(x)) = x", claim([Var("x", "real")], [], log(exp(x)).eq(x)), ("identity",)),
])
