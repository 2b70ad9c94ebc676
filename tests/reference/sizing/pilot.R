# Reference values from R survey (svydesign + svymean) for sizing's design-based variances.
# 1. Clusters: examples/scores.csv (SYNTHETIC), alpha - beta per item, cluster = document:
#      svymean(~d, svydesign(ids = ~cluster, data = x))  ->  SE^2 = the cluster-robust Var(mean d)
#    and the same design without clusters (ids = ~1) -> SE^2 = var(d) / n.
#    benchplan uses Miller's (2024) clustered variance, without survey's C/(C - 1):
#      millerVarianceOfMean = sum_c e_c^2 / N^2 + sum_i (d_i - dbar)^2 / (N^2 (N - 1)),  e_c = sum_{i in c} (d_i - dbar),
#    computed here by hand and checked against survey: (C - 1)/C * SE^2(ids = ~cluster) + SE^2(ids = ~1) / N.
#    The design effect is millerVarianceOfMean / srsVarianceOfMean (what `compare --cluster` reports too).
# 2. Strata: examples/pilot.csv, candidate - baseline, strata from the stratum column:
#      quota weights (the pilot's own mix):  svydesign(ids = ~1, strata = ~stratum, data = x)
#      traffic weights (examples/strata.yaml): weights = traffic_h / n_h per item
#    SE^2 = sum_h w_h^2 s_h^2 / n_h = stratifiedVariance(w, s2, n).
# Run: Rscript tests/reference/sizing/pilot.R > tests/reference/sizing/pilot-r.json
suppressPackageStartupMessages(library(survey))
num <- function(x) sprintf('%.17g', x)
wide <- function(path, a, b) {
  s <- read.csv(path, stringsAsFactors = FALSE)
  A <- s[s$model == a, ]; B <- s[s$model == b, ]
  m <- merge(A, B, by = "item", suffixes = c(".a", ".b"))
  m$d <- m$score.a - m$score.b
  m
}
sc <- wide("examples/scores.csv", "alpha", "beta")
sc$cluster <- sc$cluster.a
clustered <- svymean(~d, svydesign(ids = ~cluster, data = sc))
plain <- svymean(~d, svydesign(ids = ~1, data = sc))
e <- tapply(sc$d - mean(sc$d), sc$cluster, sum)
N <- nrow(sc); C <- length(e)
miller <- sum(e^2) / N^2 + sum((sc$d - mean(sc$d))^2) / (N^2 * (N - 1))
stopifnot(abs(miller - ((C - 1) / C * SE(clustered)^2 + SE(plain)^2 / N)) < 1e-15)

pl <- wide("examples/pilot.csv", "candidate", "baseline")
pl$stratum <- pl$stratum.a
traffic <- c(routine = 0.72, rare_clause = 0.05, past_failure = 0.03, negative_control = 0.20)
counts <- table(pl$stratum)
pl$w <- traffic[pl$stratum] / as.numeric(counts[pl$stratum])
quota_w <- svymean(~d, svydesign(ids = ~1, strata = ~stratum, data = pl))
traffic_w <- svymean(~d, svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = pl))

cat('{\n "generator": "tests/reference/sizing/pilot.R",\n "R": "', R.version.string, '",\n "survey": "', as.character(packageVersion("survey")), '",\n',
    ' "clustered": {"items": ', nrow(sc), ', "clusters": ', length(unique(sc$cluster)), ', "mean": ', num(coef(clustered)),
    ', "varianceOfMean": ', num(SE(clustered)^2), ', "srsVarianceOfMean": ', num(SE(plain)^2), ', "millerVarianceOfMean": ', num(miller), '},\n',
    ' "stratified": {"quotaWeightedVariance": ', num(SE(quota_w)^2), ', "quotaWeightedMean": ', num(coef(quota_w)),
    ', "trafficWeightedVariance": ', num(SE(traffic_w)^2), ', "trafficWeightedMean": ', num(coef(traffic_w)), '}\n}\n', sep = '')
