# Reference values for src/paired/cr2.ts: the CR2 (Bell-McCaffrey) cluster-robust SE of a mean
# with Satterthwaite degrees of freedom, from R clubSandwich. Run from the repository root:
#   Rscript tests/reference/cr2/cr2_reference.R > tests/reference/cr2/cr2.json
# (R 4.x, clubSandwich 0.5.8, jsonlite). The tests read cr2.json and never need R.
#
# Unstratified: coef_test(lm(d ~ 1), vcov = "CR2", cluster = cl, test = "Satterthwaite") and
# conf_int(..., level) of the same fit. One-sided intervals are not in clubSandwich: they are
# est -/+ qt(level, df) * SE with clubSandwich's SE and df, p-values pt() of clubSandwich's t.
# Stratified: linear_contrast(lm(d ~ 0 + stratum), vcov = "CR2", cluster = cl,
# contrasts = matrix(w, 1), test = "Satterthwaite"), w the weights in the order of the factor levels.
# Miller's SE beside it (src/paired/clustered-se.ts): sqrt(sum_g T_g^2 / n^2 + sum e^2 / (n^2 (n - 1))).
suppressPackageStartupMessages({
  library(clubSandwich)
  library(jsonlite)
})

miller_se <- function(d, cl) {
  n <- length(d)
  e <- d - mean(d)
  tot <- tapply(e, cl, sum)
  sqrt(sum(tot^2) / n^2 + sum(e^2) / (n^2 * (n - 1)))
}

case <- function(name, d, cl, levels = c(0.95, 0.9)) {
  fit <- lm(d ~ 1)
  ct <- coef_test(fit, vcov = "CR2", cluster = cl, test = "Satterthwaite")
  est <- unname(coef(fit))
  se <- ct$SE
  df <- ct$df_Satt
  t <- ct$tstat
  intervals <- lapply(levels, function(level) {
    ci <- conf_int(fit, vcov = "CR2", cluster = cl, test = "Satterthwaite", level = level)
    q1 <- qt(level, df)
    list(
      confidenceLevel = level,
      twoSided = c(ci$CI_L, ci$CI_U),
      lessHigh = est + q1 * se,
      greaterLow = est - q1 * se
    )
  })
  list(
    name = name, values = d, clusters = as.character(cl),
    estimate = est, standardError = se, df = df, statistic = t,
    pValue = ct$p_Satt, pValueLess = pt(t, df), pValueGreater = pt(-t, df),
    millerStandardError = miller_se(d, cl),
    nClusters = length(unique(cl)),
    intervals = intervals
  )
}

stratified_case <- function(name, d, cl, st, w, level = 0.95) {
  f <- factor(st, levels = unique(st))
  fit <- lm(d ~ 0 + f)
  wv <- unname(w[levels(f)])
  lc <- linear_contrast(fit, vcov = "CR2", cluster = cl, contrasts = matrix(wv, nrow = 1), test = "Satterthwaite", level = level)
  V <- vcovCR(fit, cluster = cl, type = "CR2")
  se <- sqrt(drop(t(wv) %*% V %*% wv))
  list(
    name = name, values = d, clusters = as.character(cl), strata = as.character(st), weights = as.list(w),
    confidenceLevel = level,
    estimate = lc$Est, standardError = se, seLinearContrast = lc$SE, df = lc$df, confidenceInterval = c(lc$CI_L, lc$CI_U)
  )
}

set.seed(20261201)
sizes_of <- function(G, lo, hi) sample(lo:hi, G, replace = TRUE)
make <- function(sizes, gen) {
  cl <- rep(sprintf("c%02d", seq_along(sizes)), sizes)
  u <- rnorm(length(sizes), sd = 0.5)[rep(seq_along(sizes), sizes)]
  list(d = gen(length(cl)) + u, cl = cl)
}

cases <- list()
x <- make(rep(4, 5), function(n) rnorm(n)); cases[[length(cases) + 1]] <- case("equal-5x4", round(x$d, 6), x$cl)
x <- make(sizes_of(5, 1, 12), function(n) rnorm(n)); cases[[length(cases) + 1]] <- case("unequal-5", round(x$d, 6), x$cl)
x <- make(sizes_of(8, 1, 20), function(n) rexp(n) - 1); cases[[length(cases) + 1]] <- case("unequal-8-skewed", round(x$d, 6), x$cl)
x <- make(sizes_of(30, 1, 15), function(n) rnorm(n, 0.2)); cases[[length(cases) + 1]] <- case("unequal-30", round(x$d, 6), x$cl)
x <- make(c(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), function(n) rnorm(n)); cases[[length(cases) + 1]] <- case("one-item-clusters-12", round(x$d, 6), x$cl)
x <- make(c(1, 1, 9, 2, 1, 14, 3, 1), function(n) rnorm(n)); cases[[length(cases) + 1]] <- case("mixed-with-singletons-8", round(x$d, 6), x$cl)
# paired 0/1 differences in {-1, 0, 1}: mostly agreement
x <- make(sizes_of(12, 2, 10), function(n) sample(c(-1, 0, 1), n, replace = TRUE, prob = c(0.15, 0.7, 0.15)))
cases[[length(cases) + 1]] <- case("paired-binary-12", sample(c(-1, 0, 1), length(x$cl), replace = TRUE, prob = c(0.1, 0.75, 0.15)), x$cl)
cases[[length(cases) + 1]] <- case("two-clusters", c(0.3, 0.5, 0.1, 1.2, 0.8), c("p", "p", "p", "q", "q"))

strat <- list()
# 3 strata, clusters nested, traffic weights
sz <- c(3, 5, 2, 4, 6, 1, 2, 7, 3, 2)
st <- rep(c("routine", "routine", "routine", "routine", "rare", "rare", "rare", "negative", "negative", "negative"), sz)
x <- make(sz, function(n) rnorm(n))
strat[[1]] <- stratified_case("three-strata-traffic", round(x$d, 6), x$cl, st, c(routine = 0.72, rare = 0.08, negative = 0.2))
strat[[2]] <- stratified_case("three-strata-shares", round(x$d, 6), x$cl, st, c(routine = 18 / 35, rare = 9 / 35, negative = 8 / 35), level = 0.9)
# singleton clusters in 2 strata (the unclustered stratified headline)
st2 <- rep(c("a", "b"), c(9, 5))
strat[[3]] <- stratified_case("two-strata-items", round(rnorm(14), 6), sprintf("i%02d", 1:14), st2, c(a = 0.3, b = 0.7))

cat(toJSON(list(
  generatedBy = "tests/reference/cr2/cr2_reference.R",
  clubSandwich = as.character(packageVersion("clubSandwich")),
  cases = cases, stratified = strat
), digits = NA, auto_unbox = TRUE, pretty = TRUE))
cat("\n")
