# Reference values for the per-stratum and reweighted-headline intervals of 0/1 (and [0, 1])
# scores in src/strata: R survey's svyciprop on a stratified design, and prop.test for Wilson.
# Run from the repository root:
#   Rscript tests/reference/strata-proportions/proportions.R > tests/reference/strata-proportions/proportions.json
# (R 4.x, survey 4.1-1, jsonlite). The tests read proportions.json and never need R.
#
# Design (as tests/reference/strata/survey.R): one item one PSU (ids = ~1), strata = ~stratum,
# weight W_h / n_h per item of stratum h, no fpc. Headline intervals:
#   svyciprop(~y, des, method = "logit", level)   (svyglm quasibinomial, Wald on the logit scale, t with degf = n - H)
#   svyciprop(~y, des, method = "xlogit", level)  (the same by the delta method: must agree)
#   svyciprop(~y, des, method = "beta", level)    (Korn & Graubard 1998)
#   confint(svymean(~y, des), level)              (the Wald interval benchplan printed before)
# Per stratum: prop.test(x, n, correct = FALSE)$conf.int (Wilson 1927).
# betaSmoothed: benchplan's own Korn-Graubard variant, by hand here (no package has it): Jeffreys-
# smoothed stratum shares pt_h = (x_h + 1/2) / (n_h + 1), n* = pt (1 - pt) / sum W_h^2 pt_h (1 - pt_h) / n_h
# * (qt(a/2, n - 1) / qt(a/2, n - H))^2 with pt = sum W_h pt_h, then qbeta at x* = n* p as svyciprop's beta.
suppressPackageStartupMessages({
  library(survey)
  library(jsonlite)
})

beta_smoothed <- function(y, stratum, traffic, level) {
  h <- names(traffic)
  n_h <- sapply(h, function(s) sum(stratum == s))
  x_h <- sapply(h, function(s) sum(y[stratum == s]))
  W <- unname(traffic[h])
  p <- sum(W * x_h / n_h)
  pt_h <- (x_h + 0.5) / (n_h + 1)
  pt <- sum(W * pt_h)
  vt <- sum(W^2 * pt_h * (1 - pt_h) / n_h)
  a <- 1 - level
  n <- length(y)
  n_eff <- pt * (1 - pt) / vt * (qt(a / 2, n - 1) / qt(a / 2, n - length(h)))^2
  c(if (p == 0) 0 else qbeta(a / 2, n_eff * p, n_eff * (1 - p) + 1), if (p == 1) 1 else qbeta(1 - a / 2, n_eff * p + 1, n_eff * (1 - p)))
}

headline_case <- function(name, y, stratum, traffic, levels = c(0.95, 0.9)) {
  n_h <- table(stratum)
  w <- unname(traffic[stratum] / as.numeric(n_h[stratum]))
  d <- data.frame(y = y, stratum = stratum, w = w)
  des <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = d)
  m <- svymean(~y, des)
  out <- lapply(levels, function(level) {
    lo <- svyciprop(~y, des, method = "logit", level = level)
    xl <- svyciprop(~y, des, method = "xlogit", level = level)
    be <- svyciprop(~y, des, method = "beta", level = level)
    list(
      confidenceLevel = level,
      logit = unname(attr(lo, "ci")),
      xlogit = unname(attr(xl, "ci")),
      beta = unname(attr(be, "ci")),
      wald = unname(confint(m, level = level)[1, ]),
      betaSmoothed = beta_smoothed(y, stratum, traffic, level)
    )
  })
  per <- lapply(names(traffic), function(h) {
    yy <- y[stratum == h]
    list(stratum = h, n = length(yy), successes = sum(yy), wilson95 = as.numeric(suppressWarnings(prop.test(sum(yy), length(yy), correct = FALSE))$conf.int),
         wilson90 = as.numeric(suppressWarnings(prop.test(sum(yy), length(yy), correct = FALSE, conf.level = 0.9))$conf.int))
  })
  list(name = name, scores = y, strata = stratum, traffic = as.list(traffic), estimate = unname(coef(m)), standardError = unname(SE(m)[1]),
       degf = degf(des), intervals = out, perStratum = if (all(y %in% c(0, 1))) per else list())
}

set.seed(1201)
tr <- c(routine = 0.72, rare = 0.05, past = 0.03, negative = 0.2)
# 4 strata of very unequal size, high scores (the demo's situation: one stratum near 1)
st <- rep(names(tr), c(80, 12, 6, 30))
p <- c(routine = 0.985, rare = 0.7, past = 0.6, negative = 0.93)
y1 <- rbinom(length(st), 1, p[st])
st2 <- rep(names(tr), c(15, 40, 40, 25))
y2 <- rbinom(length(st2), 1, c(routine = 0.6, rare = 0.3, past = 0.5, negative = 0.8)[st2])
# one stratum all 1, another all 0
st3 <- rep(c("a", "b", "c"), c(10, 5, 20))
y3 <- c(rep(1, 10), rep(0, 5), rbinom(20, 1, 0.8))
# partial-credit scores in [0, 1]
st4 <- rep(names(tr), c(20, 10, 8, 12))
y4 <- round(pmin(1, pmax(0, rbeta(length(st4), 5, 1))), 4)
st5 <- rep(c("a", "b"), c(6, 9))
y5 <- rep(1, 15)
cases <- list(
  headline_case("unequal-high", y1, st, tr),
  headline_case("unequal-middle", y2, st2, tr),
  headline_case("constant-strata", y3, st3, c(a = 0.5, b = 0.1, c = 0.4)),
  headline_case("partial-credit", y4, st4, tr)
)
wilson <- lapply(list(c(0, 10), c(10, 10), c(1, 11), c(79, 80), c(3, 7)), function(xn) {
  list(successes = xn[1], trials = xn[2], interval95 = as.numeric(suppressWarnings(prop.test(xn[1], xn[2], correct = FALSE))$conf.int))
})
# every item passes: svyciprop is NaN here (0/0); the smoothed interval is not
all_pass <- list(scores = y5, strata = st5, traffic = list(a = 0.6, b = 0.4), betaSmoothed95 = beta_smoothed(y5, st5, c(a = 0.6, b = 0.4), 0.95))
cat(toJSON(list(generatedBy = "tests/reference/strata-proportions/proportions.R", survey = as.character(packageVersion("survey")), cases = cases, wilson = wilson, allPass = all_pass),
           digits = NA, auto_unbox = TRUE, pretty = FALSE))
cat("\n")
