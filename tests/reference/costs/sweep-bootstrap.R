# Monte Carlo reference for tests/costs/uncertainty.test.ts: the paired bootstrap over documents of
# the bundled example's cost sweep, done independently with R boot (its own RNG), so the test can
# check benchplan's numbers agree within Monte Carlo error.
# Run: Rscript tests/reference/costs/sweep-bootstrap.R > tests/reference/costs/sweep-bootstrap.json
#
# Policy (examples/policy.yaml): hit 0, miss 1, fabrication 8 (swept, band [4, 20]), wrong_span 2,
# correct_absent 0. Per document d and model m: A[d, m] = misses + 2 * wrong spans (fixed part),
# F[d, m] = fabrications (swept part); cost at fabrication cost x = A + x * F.
library(boot)
scores <- read.csv("examples/scores.csv", stringsAsFactors = FALSE)
models <- c("alpha", "beta", "gamma")
docs <- unique(scores$cluster)
A <- sapply(models, function(m) { s <- scores[scores$model == m, ]; tapply((s$outcome == "miss") + 2 * (s$outcome == "wrong_span"), factor(s$cluster, levels = docs), sum) })
F <- sapply(models, function(m) { s <- scores[scores$model == m, ]; tapply(s$outcome == "fabrication", factor(s$cluster, levels = docs), sum) })
x0 <- 8
band <- c(4, 20)
# The statistic: per resample, whether alpha is strictly cheapest at x0, the alpha/beta crossing
# x* = -(dA) / (dF) (Inf with sign when dF = 0), and the slope difference dF.
stat <- function(d, i) {
  a <- colSums(A[i, , drop = FALSE]); f <- colSums(F[i, , drop = FALSE])
  cost <- a + x0 * f
  ahead <- as.numeric(cost[1] < cost[2] && cost[1] < cost[3])
  dA <- a[1] - a[2]; dF <- f[1] - f[2]
  cross <- if (dF != 0) -dA / dF else if (dA > 0) -Inf else if (dA < 0) Inf else NaN
  c(ahead, cross, dF)
}
set.seed(20261001)
b <- boot(seq_along(docs), stat, R = 20000)
cross <- b$t[, 2]; cross <- cross[!is.nan(cross)]
q <- function(x) quantile(x, c(0.025, 0.975), type = 7, names = FALSE)
# Monte Carlo spread of the crossing interval's ends at B = 9999 (benchplan's default): 20 runs.
runs <- t(sapply(1:20, function(k) { bb <- boot(seq_along(docs), stat, R = 9999); x <- bb$t[, 2]; q(x[!is.nan(x)]) }))
slope0 <- sum(F[, 1] - F[, 2])
out <- sprintf('{
  "source": "%s; boot %s; boot(documents, stat, R = 20000), quantile(type = 7)",
  "documents": %d,
  "nResamples": 20000,
  "leaderAheadProbability": %.10f,
  "crossing": { "models": ["alpha", "beta"], "value": %.15g, "confidenceInterval": [%.10f, %.10f], "inBandProbability": %.10f, "orientationFlips": %.10f },
  "monteCarloSdOfEndsAt9999": [%.10f, %.10f]
}
', R.version.string, packageVersion("boot"), length(docs), mean(b$t[, 1]),
  -(sum(A[, 1]) - sum(A[, 2])) / (sum(F[, 1]) - sum(F[, 2])), q(cross)[1], q(cross)[2],
  mean(b$t[, 2] >= band[1] & b$t[, 2] <= band[2], na.rm = FALSE),
  mean(sign(b$t[, 3]) != sign(slope0)), sd(runs[, 1]), sd(runs[, 2]))
cat(out)
