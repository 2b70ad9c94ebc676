# Reference values for per-candidate Rogan–Gladen corrected rates and the corrected A − B
# (src/judge/corrected-rates.ts), computed by a different route than the library's:
#  - each rate's SE: the delta method with a numerical gradient over (p, Se, Sp) taken as
#    independent binomial shares (Greiner & Gardner 2000), as the library's roganGladen;
#  - each difference's SE: the multivariate delta method on the item-level (or cluster-level)
#    MEANS of the counting variables (judged, judge positive, human positive, true positive,
#    human negative, true negative for each candidate), covariance with divisor n, numerical
#    gradient of theta_A - theta_B. The library sums per-row influence values instead.
#  - a nonparametric paired bootstrap over items (clusters) of the same difference, as a sanity
#    check of the linearisation (Monte Carlo error of its SE about 1/sqrt(2 B)).
# Run from the repository root: Rscript tests/reference/judge/corrected_rates_reference.R
# Writes tests/reference/judge/corrected-rates.json.
rg <- function(p, se, sp) (p + sp - 1) / (se + sp - 1)
num_grad <- function(f, x, h = 1e-6) sapply(seq_along(x), function(i) { e <- replace(numeric(length(x)), i, h); (f(x + e) - f(x - e)) / (2 * h) })

# Cluster-level totals of the six counting variables for candidate m; labels from `lab_models`.
totals <- function(d, m, lab_models, units) {
  rows <- d[d$model == m, ]
  lab <- d[d$model %in% lab_models & !is.na(d$score), ]
  agg <- function(x, unit) { s <- tapply(x, factor(unit, levels = units), sum); s[is.na(s)] <- 0; as.numeric(s) }
  cbind(
    judged = agg(rep(1, nrow(rows)), rows$unit), jpos = agg(rows$judge, rows$unit),
    hpos = agg(lab$score == 1, lab$unit), tp = agg(lab$score == 1 & lab$judge == 1, lab$unit),
    hneg = agg(lab$score == 0, lab$unit), tn = agg(lab$score == 0 & lab$judge == 0, lab$unit)
  )
}
theta_of <- function(mu) rg(mu[2] / mu[1], mu[4] / mu[3], mu[6] / mu[5])

case <- function(d, source, B = 4000) {
  models <- unique(d$model)
  units <- unique(d$unit)
  labm <- function(m) if (source == "pooled") models else m
  rates <- lapply(models, function(m) {
    tt <- colSums(totals(d, m, labm(m), units))
    p <- tt[["jpos"]] / tt[["judged"]]; se <- tt[["tp"]] / tt[["hpos"]]; sp <- tt[["tn"]] / tt[["hneg"]]
    V <- diag(c(p * (1 - p) / tt[["judged"]], se * (1 - se) / tt[["hpos"]], sp * (1 - sp) / tt[["hneg"]]))
    gr <- num_grad(function(t) rg(t[1], t[2], t[3]), c(p, se, sp))
    list(model = m, judgeRate = p, sensitivity = se, specificity = sp, estimate = rg(p, se, sp), standardError = sqrt(drop(t(gr) %*% V %*% gr)))
  })
  diffs <- list()
  for (x in seq_along(models)) for (y in seq_along(models)) if (x < y) {
    a <- models[x]; b <- models[y]
    Z <- cbind(totals(d, a, labm(a), units), totals(d, b, labm(b), units))
    n <- nrow(Z)
    mu <- colMeans(Z)
    f <- function(m) theta_of(m[1:6]) - theta_of(m[7:12])
    S <- cov(Z) * (n - 1) / n
    g <- num_grad(f, mu, h = 1e-7)
    se_delta <- sqrt(drop(t(g) %*% S %*% g) / n)
    set.seed(20261202)
    boot <- replicate(B, { k <- sample.int(n, n, replace = TRUE); f(colMeans(Z[k, , drop = FALSE])) })
    diffs[[length(diffs) + 1]] <- list(a = a, b = b, estimate = f(mu), standardError = se_delta, bootstrapStandardError = sd(boot[is.finite(boot)]), bootstrapPercentile = unname(quantile(boot[is.finite(boot)], c(0.025, 0.975))), nResamples = B, nClusters = n)
  }
  list(source = source, rates = rates, differences = diffs)
}

ex <- read.csv("examples/judge-labels.csv", stringsAsFactors = FALSE)
ex$unit <- ex$item
# A synthetic case with clusters, three candidates and a judge that errs differently on each:
# 90 items in 30 clusters of 3; 40% of items labelled.
set.seed(7)
items <- sprintf("s%03d", 1:90)
syn <- do.call(rbind, lapply(c("a", "b", "c"), function(m) {
  truth <- rbinom(90, 1, c(a = 0.6, b = 0.45, c = 0.5)[[m]])
  se <- c(a = 0.9, b = 0.8, c = 0.85)[[m]]; sp <- c(a = 0.85, b = 0.9, c = 0.8)[[m]]
  judge <- ifelse(truth == 1, rbinom(90, 1, se), 1 - rbinom(90, 1, sp))
  data.frame(item = items, model = m, cluster = sprintf("c%02d", (0:89) %/% 3), judge = judge, score = ifelse((1:90) %% 5 < 2, truth, NA))
}))
syn$unit <- syn$cluster
out <- list(
  source = "R: numerical-gradient delta methods (rates: independent shares; differences: multivariate on item/cluster means) and a paired bootstrap",
  example = list(perCandidate = case(ex, "per-candidate"), pooled = case(ex, "pooled")),
  synthetic = list(rows = syn[, c("item", "model", "cluster", "judge", "score")], perCandidate = case(syn, "per-candidate"), pooled = case(syn, "pooled"))
)
writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE, na = "null"), "tests/reference/judge/corrected-rates.json")
