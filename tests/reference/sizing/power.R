# Reference values for power sizing (src/sizing/power.ts) from R pwr (1.3.0).
#   pwrN     = pwr.t.test(d = d, sig.level = alpha, power = power, type = "paired", alternative = alt)$n
#              (pwr solves with uniroot at its default tol = .Machine$double.eps^0.25, ~1.2e-4)
#   nExact   = uniroot(function(n) pwr.t.test(n = n, d = d, sig.level = alpha, type = "paired",
#                alternative = alt)$power - power, c(2 + 1e-10, 1e7), tol = 1e-13)$root
#              (the same power function, solved tightly: the value to match to 1e-6)
#   effectAtBudget = uniroot over d of pwr.t.test(n = nobs, d = d, ...)$power - power, tol = 1e-14;
#   pwrEffect = pwr.t.test(n = nobs, d = NULL, power = power, ...)$d
# Run: Rscript tests/reference/sizing/power.R > tests/reference/sizing/power-r.json
suppressPackageStartupMessages(library(pwr))
num <- function(x) sprintf('%.17g', x)
cases <- list(
  list("chapter mde 5", 5 / sqrt(428.9), 0.05, 0.8, "two.sided"),
  list("chapter mde 2", 2 / sqrt(428.9), 0.05, 0.8, "two.sided"),
  list("examples/pilot.csv mde 5", 5 / sqrt(244.1462025316455), 0.05, 0.8, "two.sided"),
  list("medium effect, 90%", 0.5, 0.05, 0.9, "two.sided"),
  list("large effect, alpha 1%", 0.8, 0.01, 0.8, "two.sided"),
  list("small effect, one-sided", 0.3, 0.1, 0.95, "greater"),
  list("tiny effect", 0.05, 0.05, 0.8, "two.sided"),
  list("very large effect", 1.2, 0.05, 0.8, "two.sided"),
  list("one-sided, 80%", 0.25, 0.05, 0.8, "greater"),
  list("alpha 10%, 50% power", 0.4, 0.1, 0.5, "two.sided")
)
budgets <- list(
  list("chapter variance at 400 items", 400, 0.05, 0.8, "two.sided"),
  list("a pilot of 80", 80, 0.05, 0.8, "two.sided"),
  list("30 items, 90%, one-sided", 30, 0.05, 0.9, "greater"),
  list("2000 items", 2000, 0.01, 0.95, "two.sided")
)
alt_name <- function(a) if (a == "two.sided") "two-sided" else "greater"
rows <- vapply(cases, function(k) {
  d <- k[[2]]; alpha <- k[[3]]; power <- k[[4]]; alt <- k[[5]]
  pw <- function(n) pwr.t.test(n = n, d = d, sig.level = alpha, type = "paired", alternative = alt)$power
  n_exact <- uniroot(function(n) pw(n) - power, c(2 + 1e-10, 1e7), tol = 1e-13)$root
  n_pwr <- pwr.t.test(d = d, sig.level = alpha, power = power, type = "paired", alternative = alt)$n
  sprintf('  {"label": "%s", "effectSize": %s, "alpha": %s, "power": %s, "alternative": "%s", "pwrN": %s, "nExact": %s}',
          k[[1]], num(d), num(alpha), num(power), alt_name(alt), num(n_pwr), num(n_exact))
}, "")
brows <- vapply(budgets, function(k) {
  nobs <- k[[2]]; alpha <- k[[3]]; power <- k[[4]]; alt <- k[[5]]
  pw <- function(d) pwr.t.test(n = nobs, d = d, sig.level = alpha, type = "paired", alternative = alt)$power
  d_exact <- uniroot(function(d) pw(d) - power, c(1e-6, 20), tol = 1e-14)$root
  d_pwr <- pwr.t.test(n = nobs, d = NULL, sig.level = alpha, power = power, type = "paired", alternative = alt)$d
  sprintf('  {"label": "%s", "nobs": %s, "alpha": %s, "power": %s, "alternative": "%s", "pwrEffect": %s, "effectAtBudget": %s}',
          k[[1]], num(nobs), num(alpha), num(power), alt_name(alt), num(d_pwr), num(d_exact))
}, "")
cat('{\n "generator": "tests/reference/sizing/power.R",\n "R": "', R.version.string, '",\n "pwr": "', as.character(packageVersion("pwr")), '",\n',
    ' "cases": [\n', paste(rows, collapse = ',\n'), '\n ],\n "budgets": [\n', paste(brows, collapse = ',\n'), '\n ]\n}\n', sep = '')
