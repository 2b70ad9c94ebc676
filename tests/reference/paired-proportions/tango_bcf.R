# Reference values for the default 0/1 interval of src/paired/paired-proportion.ts: Tango's (1998)
# score interval with Miettinen & Nurminen's variance bias-correction factor n/(n - 1) (ratesci's
# pairbinci bcf = TRUE), computed independently of the library:
#   - the nuisance P(only B right) = q is profiled out by NUMERICALLY maximising the restricted
#     trinomial likelihood b log(q + d) + c log(q) + (n - b - c) log(1 - 2q - d) with optimize()
#     (not Tango's closed form);
#   - the factor is applied to the variance inside the statistic,
#     Z(d) = (b - c - n d) / sqrt(n/(n - 1) * n (2q + d - d^2)), not as the library's inflated
#     quantile z sqrt(n/(n - 1));
#   - the interval {d : |Z(d)| <= z} is found with uniroot() on each side of the estimate.
# Also the score p-value Z(0) and, with bcf = FALSE, Tango's published interval.
# Run: Rscript tests/reference/paired-proportions/tango_bcf.R > tests/reference/paired-proportions/tango_bcf.json
restricted_q <- function(b, c, n, d) {
  lo <- max(0, -d); hi <- (1 - d) / 2
  if (hi - lo < 1e-15) return(lo)
  nll <- function(q) {
    ps <- c(q + d, q, 1 - 2 * q - d); ks <- c(b, c, n - b - c)
    if (any(ks > 0 & ps <= 0)) return(1e300)
    -sum(ifelse(ks > 0, ks * log(pmax(ps, 1e-300)), 0))
  }
  o <- optimize(nll, c(lo, hi), tol = 1e-15)
  cand <- c(lo, hi, o$minimum)
  cand[which.min(sapply(cand, nll))]
}
tango_z <- function(b, c, n, d, bcf) {
  q <- restricted_q(b, c, n, d)
  v <- n * (2 * q + d - d^2) * (if (bcf) n / (n - 1) else 1)
  num <- b - c - n * d
  if (v <= 0) return(if (num == 0) 0 else sign(num) * Inf)
  num / sqrt(v)
}
interval <- function(b, c, n, z, bcf) {
  est <- (b - c) / n; eps <- 1e-12
  low <- if (est <= -1) -1 else uniroot(function(d) tango_z(b, c, n, d, bcf) - z, c(-1 + eps, est), tol = 1e-14)$root
  high <- if (est >= 1) 1 else uniroot(function(d) tango_z(b, c, n, d, bcf) + z, c(est, 1 - eps), tol = 1e-14)$root
  c(low, high)
}
tables <- list(
  list(36, 12, 2, 0, "Newcombe 1998 example (a)"),
  list(1, 1, 7, 12, "Bentur et al. 2009 via Fagerland et al. 2014"),
  list(53, 16, 8, 9, "Agresti & Min 2005"),
  list(3, 0, 0, 0, "3 agreeing items"),
  list(20, 0, 0, 19, "39 agreeing items, 20 right and 19 wrong"),
  list(0, 9, 0, 21, "n = 30, only A right on 9 (the old worst cell's table)"),
  list(7, 3, 0, 0, "b = 3, c = 0"),
  list(0, 10, 0, 0, "A right, B wrong on every item"),
  list(5, 1, 1, 3, "b = c = 1"),
  list(180, 9, 4, 7, "200 items, 13 discordant"),
  list(600, 30, 12, 358, "1,000 items, 42 discordant")
)
cases <- list()
for (t in tables) {
  both <- t[[1]]; b <- t[[2]]; c <- t[[3]]; neither <- t[[4]]; n <- both + b + c + neither
  for (spec in list(list(0.95, "two-sided"), list(0.90, "two-sided"), list(0.95, "greater"), list(0.95, "less"))) {
    level <- spec[[1]]; alt <- spec[[2]]
    z <- if (alt == "two-sided") qnorm(1 - (1 - level) / 2) else qnorm(level)
    ci <- interval(b, c, n, z, TRUE); plain <- interval(b, c, n, z, FALSE)
    if (alt == "greater") { ci[2] <- 1; plain[2] <- 1 }
    if (alt == "less") { ci[1] <- -1; plain[1] <- -1 }
    z0 <- if (b + c == 0) 0 else tango_z(b, c, n, 0, TRUE)
    p <- if (b + c == 0) 1 else if (alt == "two-sided") min(1, 2 * pnorm(-abs(z0))) else if (alt == "greater") pnorm(-z0) else pnorm(z0)
    cases[[length(cases) + 1]] <- list(counts = list(both = both, onlyA = b, onlyB = c, neither = neither), note = t[[5]],
      confidenceLevel = level, alternative = alt, tangoBcf = ci, tango = plain, scorePValue = p)
  }
}
cat(jsonlite::toJSON(list(script = "tests/reference/paired-proportions/tango_bcf.R", R = R.version.string, cases = cases), auto_unbox = TRUE, digits = NA, pretty = TRUE), "\n")
