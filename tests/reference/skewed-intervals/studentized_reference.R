# Reference values for src/bootstrap/studentized.ts: R boot's studentized interval
# boot.ci(type = "stud") on recorded resamples, unstratified and stratified, and the stratified
# standard error from R survey's svymean (stratified simple random sampling with replacement).
# The statistic returns c(mean, variance of the mean) per resample, as boot.ci's "stud" needs; the
# JSON records both columns so the TypeScript interval step can be fed the very same resamples
# (its quantileRule "boot" is boot's norm.inter).
# Run: Rscript tests/reference/skewed-intervals/studentized_reference.R > tests/reference/skewed-intervals/studentized.json
suppressPackageStartupMessages({ library(boot); library(survey); library(jsonlite) })
set.seed(20261201)
stat_plain <- function(x, i) { y <- x[i]; c(mean(y), var(y) / length(y)) }
cases <- list()
add_case <- function(name, x, strata, R, conf, stat) {
  b <- if (is.null(strata)) boot(x, stat, R = R) else boot(x, stat, R = R, strata = strata)
  ci <- boot.ci(b, conf = conf, type = "stud")$student
  list(name = name, values = x, strata = if (is.null(strata)) NULL else strata - 1L, confidenceLevel = conf,
       estimate = b$t0[1], standardError = sqrt(b$t0[2]),
       estimates = b$t[, 1], standardErrors = sqrt(b$t[, 2]), interval = ci[4:5])
}
x1 <- round(exp(rnorm(15)), 6)
cases[[1]] <- add_case("lognormal, n = 15, 95%", x1, NULL, 999, 0.95, stat_plain)
cases[[2]] <- add_case("lognormal, n = 15, 90%", x1, NULL, 499, 0.90, stat_plain)
# Stratified: the estimate is sum_h W_h mean_h with W_h = n_h / n (the plain mean), its variance
# sum_h W_h^2 var_h / n_h.
h <- c(rep(1L, 12), rep(2L, 6), rep(3L, 4))
x2 <- round(c(rnorm(12, 0.1, 0.3), exp(rnorm(6)) - 1, 2 * exp(rnorm(4)) - 2), 6)
stat_strat <- function(x, i) {
  y <- x[i]; hh <- h[i]; n <- length(y)
  est <- 0; v <- 0
  for (k in unique(hh)) { yk <- y[hh == k]; w <- length(yk) / n; est <- est + w * mean(yk); v <- v + w^2 * var(yk) / length(yk) }
  c(est, v)
}
cases[[3]] <- add_case("3 strata 12/6/4, skewed small strata, 95%", x2, h, 999, 0.95, stat_strat)
d <- svydesign(ids = ~1, strata = ~h, data = data.frame(y = x2, h = h))
m <- svymean(~y, d)
out <- list(R = R.version.string, boot = as.character(packageVersion("boot")), survey = as.character(packageVersion("survey")),
            cases = cases, svymean = list(values = x2, strata = h - 1L, estimate = unname(coef(m)), standardError = unname(SE(m)[1])))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, null = "null"))
