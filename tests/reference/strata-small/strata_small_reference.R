# Reference values for src/strata/small-strata-variance.ts, src/strata/small-strata-interval.ts and
# src/judge/stratified-ppi.ts (the small-strata changes of issue 25). Run from the repository root:
#   Rscript tests/reference/strata-small/strata_small_reference.R > tests/reference/strata-small/strata-small.json
# (R 4.x, survey, jsonlite). The tests read the JSON and never need R.
#
# 1. Strata of >= 10 items: V is R survey's svymean variance on
#    svydesign(ids = ~1, strata = ~h, weights = ~w), w_i = W_h / n_h (no fpc), and nothing is floored.
# 2. With small strata: an independent hand computation in R of
#    s2_pool = sum_h (n_h - 1) s_h^2 / sum_h (n_h - 1); small strata (n_h < 10) use max(s_h^2, s2_pool);
#    V = sum_h W_h^2 s~_h^2 / n_h; Satterthwaite df = V^2 / sum_k c_k^2 / nu_k, the strata that took
#    s2_pool forming one estimate on sum (n_h - 1) df, capped at sum (n_h - 1) (the pooled variance
#    reuses the other strata's sums of squares); the interval est +/- qt(0.975, df) sqrt(V).
#    survey's own SE is printed beside it (what t(n - H) used before): the floor can only raise it.
# 3. Stratified PPI++ with unbiased variances: per stratum lambda = cov_n(Y, f) / ((1 + n/N) var_{n+N-1}(f))
#    clipped to [0, 1]; theta_h = lambda mean(fu) + mean(Y - lambda f); label term var(Y - lambda f)/n
#    (divisor n - 1), judge term lambda^2 var(fu)/N (divisor N - 1); the same floor and Satterthwaite df
#    over label terms (nu = n_h - 1) and judge terms (nu = N_h - 1).
suppressPackageStartupMessages({ library(survey); library(jsonlite) })

small_strata <- function(d, h, W, min_items = 10) {
  H <- length(W)
  n <- as.numeric(table(factor(h, levels = seq_len(H) - 1)))
  m <- tapply(d, factor(h, levels = seq_len(H) - 1), mean)
  s2 <- tapply(d, factor(h, levels = seq_len(H) - 1), function(x) if (length(x) > 1) var(x) else NA)
  pool <- sum((n - 1) * ifelse(is.na(s2), 0, s2)) / sum(n - 1)
  pooled_df <- sum(n - 1)
  use_pool <- n < min_items & !(ifelse(is.na(s2), -Inf, s2) >= pool)
  s2u <- ifelse(use_pool, pool, s2)
  term <- W^2 * s2u / n
  V <- sum(term)
  den <- sum((term^2 / (n - 1))[!use_pool & term > 0]) + if (any(use_pool)) sum(term[use_pool])^2 / pooled_df else 0
  df <- min(V^2 / den, pooled_df)
  est <- sum(W * m)
  list(estimate = est, variance = V, df = df, pooledVariance = pool,
       interval = est + c(-1, 1) * qt(0.975, df) * sqrt(V))
}

survey_var <- function(d, h, W) {
  n <- as.numeric(table(h))
  dat <- data.frame(d = d, h = factor(h), w = W[h + 1] / n[h + 1])
  des <- svydesign(ids = ~1, strata = ~h, weights = ~w, data = dat)
  as.numeric(vcov(svymean(~d, des)))
}

set.seed(25)
out <- list()
# Case large: three strata of 12, 15, 20 items (none small): V must equal survey's.
h <- rep(0:2, c(12, 15, 20)); d <- round(rnorm(length(h), c(0.1, -0.2, 0.3)[h + 1], c(0.5, 1, 0.7)[h + 1]), 3); W <- c(0.5, 0.3, 0.2)
r <- small_strata(d, h, W)
out$large <- list(values = d, strata = h, weights = W, expected = c(r, list(surveyVariance = survey_var(d, h, W))))
# Case equal: the issue's design, 0/1 differences, the 5-item stratum all equal (s^2 = 0), traffic 60/10/30%.
h <- rep(0:2, c(60, 30, 5))
d <- c(rep(c(1, 0, 0, 0, 0, -1, 0, 0, 0, 0), 6), rep(c(1, 0, -1, 0, 0, 1), 5), rep(0, 5))
W <- c(0.6, 0.1, 0.3)
r <- small_strata(d, h, W)
out$equal <- list(values = d, strata = h, weights = W, expected = c(r, list(surveyVariance = survey_var(d, h, W))))
# Case varying: the 4-item stratum varies more than the pool, so it keeps its own s^2 on 3 df.
h <- rep(0:2, c(40, 15, 4))
d <- c(rep(c(0, 0, 1, 0, 0, 0, 0, -1, 0, 0), 4), c(rep(0, 12), 1, -1, 1), c(1, -1, 1, 1))
W <- c(0.5, 0.2, 0.3)
r <- small_strata(d, h, W)
out$varying <- list(values = d, strata = h, weights = W, expected = c(r, list(surveyVariance = survey_var(d, h, W))))

# Stratified PPI++: three strata (the last with 3 labels, all equal), item-share weights.
lam <- function(y, f, fu) {
  n <- length(y); N <- length(fu)
  cv <- mean((y - mean(y)) * (f - mean(f)))
  v <- var(c(f, fu))
  if (!(v > 0)) return(0)
  min(1, max(0, cv / ((1 + n / N) * v)))
}
ppi_strata <- list(
  list(stratum = "a", y = c(1, 0, -1, 0, 1, 0, 0, 1, -1, 0, 0, 1), f = c(1, 0, -1, 1, 1, 0, 0, 1, 0, 0, -1, 1),
       fu = c(1, 0, 0, -1, 1, 0, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1, 0, 1, 1, 0)),
  list(stratum = "b", y = c(0, 1, 1, 0, -1, 0), f = c(0, 1, 0, 0, -1, 1), fu = c(0, 1, 0, 0, 1, -1, 0, 0, 1, 0)),
  list(stratum = "c", y = c(1, 1, 1), f = c(1, 0, 1), fu = c(1, 1, 0, 1, 0))
)
sizes <- sapply(ppi_strata, function(s) length(s$y) + length(s$fu)); W <- sizes / sum(sizes)
est <- 0; lab <- list(); jud <- c(); judf <- c(); lams <- c()
for (k in seq_along(ppi_strata)) {
  s <- ppi_strata[[k]]; l <- lam(s$y, s$f, s$fu); lams <- c(lams, l)
  est <- est + W[k] * (l * mean(s$fu) + mean(s$y - l * s$f))
  r <- s$y - l * s$f
  lab[[k]] <- list(n = length(r), s2 = if (all(r == r[1])) 0 else var(r))
  if (l > 0) { jud <- c(jud, W[k]^2 * l^2 * var(s$fu) / length(s$fu)); judf <- c(judf, length(s$fu) - 1) }
}
n <- sapply(lab, `[[`, "n"); s2 <- sapply(lab, `[[`, "s2")
pool <- sum((n - 1) * s2) / sum(n - 1)
use_pool <- n < 10 & !(s2 >= pool)
s2u <- ifelse(use_pool, pool, s2); term <- W^2 * s2u / n
V <- sum(term) + sum(jud)
den <- sum((term^2 / (n - 1))[!use_pool & term > 0]) + (if (any(use_pool)) sum(term[use_pool])^2 / sum(n - 1) else 0) + sum(jud^2 / judf)
df <- min(V^2 / den, sum(n - 1) + sum(judf))
out$ppi <- list(strata = lapply(ppi_strata, function(s) list(stratum = s$stratum, weight = length(s$y) + length(s$fu), labels = s$y, predictions = s$f, unlabelledPredictions = s$fu)),
                expected = list(estimate = est, standardError = sqrt(V), df = df, lambda = lams,
                                interval = est + c(-1, 1) * qt(0.975, df) * sqrt(V)))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, pretty = TRUE), "\n")
