import attncert as ac

x, y = ac.var("x"), ac.var("y")
PAPER = "mypaper"
CLAIMS = [
    ac.Claim("mine.log", ac.log(x) <= x - 1, box={"x": (ac.Q(1, 10), 10)}, ref="eq. (1)"),
    ac.Claim("mine.square", x * x >= x, ref="eq. (2)"),
    ac.Claim("mine.lse", ac.log(ac.exp(x) + ac.exp(y)) <= ac.max_(x, y) + ac.Q(3, 4),
             box={"x": (-2, 2), "y": (-2, 2)}, ref="eq. (3)"),
]
