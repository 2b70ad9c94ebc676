# Reference values for tests/bootstrap from R boot, survey and stats.
# Run: Rscript tests/reference/bootstrap/r_reference.R   (writes tests/reference/bootstrap/r.json)
# The tests read the JSON; they never run R.
#
# Same resamples: boot() draws the resamples; boot.array(b, indices = TRUE) gives the very indices it
# used, which are stored so benchplan computes its intervals from the same resamples. boot.ci reads
# quantiles with norm.inter (interpolation on the normal scale between order statistics of rank
# (R + 1) * alpha) and BCa's z0 as qnorm(mean(t < t0)); benchplan's internal entry point has both
# rules ('boot' quantiles, 'strict' bias) for this comparison. L (influence values for BCa) is given
# explicitly as the jackknife deviations (n - 1) * (mean(t_(i)) - t_(i)), scipy's convention.
suppressMessages({ library(boot); library(survey); library(jsonlite) })

out <- list(R = R.version.string, boot = as.character(packageVersion("boot")),
            survey = as.character(packageVersion("survey")))

set.seed(20240611)
n <- 14
a <- round(rlnorm(n, 0, 0.7), 6)
b <- round(rlnorm(n, -0.3, 0.7), 6)
d <- data.frame(a = a, b = b)
stat <- function(data, i) mean(data$a[i] - data$b[i])
B <- 1999
res <- boot(d, stat, R = B)
idx <- boot.array(res, indices = TRUE)  # B x n, 1-based
tj <- sapply(seq_len(n), function(i) stat(d, seq_len(n)[-i]))
L <- (n - 1) * (mean(tj) - tj)
intervals <- list()
for (conf in c(0.95, 0.9, 0.8)) {
  ci <- boot.ci(res, conf = conf, type = c("perc", "basic", "bca"), L = L)
  intervals[[length(intervals) + 1]] <- list(method = "percentile", confidenceLevel = conf, interval = unname(ci$percent[4:5]))
  intervals[[length(intervals) + 1]] <- list(method = "basic", confidenceLevel = conf, interval = unname(ci$basic[4:5]))
  intervals[[length(intervals) + 1]] <- list(method = "bca", confidenceLevel = conf, interval = unname(ci$bca[4:5]))
}
out$sameResamples <- list(a = a, b = b, nResamples = B, t0 = res$t0,
                          tiesWithEstimate = sum(res$t == res$t0),
                          indices = as.vector(t(idx)) - 1L, intervals = intervals)

# Holm: p.adjust(p, method = "holm")
holm <- list()
for (p in list(c(0.01, 0.04, 0.03), c(0.2, 0.01, 0.01, 0.5, 0.049), c(0.001, NA, 0.02, 0.5), c(0.6, 0.7, 0.9))) {
  holm[[length(holm) + 1]] <- list(p = p, adjusted = p.adjust(p, method = "holm"))
}
out$holm <- holm

# McNemar: mcnemar.test (continuity-corrected chi-square) and binom.test (exact)
mc <- list()
for (bc in list(c(15, 5), c(30, 12), c(0, 3), c(120, 95))) {
  m <- matrix(c(40, bc[2], bc[1], 25), 2)  # rows A right/wrong, cols B right/wrong: b = m[1,2], c = m[2,1]
  t <- mcnemar.test(m, correct = TRUE)
  e <- binom.test(bc[1], bc[1] + bc[2], 0.5)
  mc[[length(mc) + 1]] <- list(onlyA = bc[1], onlyB = bc[2], chiSquare = unname(t$statistic),
                               chiSquarePValue = t$p.value, exactPValue = e$p.value)
}
out$mcnemar <- mc

# Clustered SE: survey::svymean with ids = ~cluster is the with-replacement (ultimate cluster)
# variance G/(G-1) * sum_c (sum_{i in c} (x_i - xbar))^2 / n^2. Miller's clustered variance is
# SE_CLT^2 + cross terms = sum_c (...)^2 / n^2 + sum_i (x_i - xbar)^2 / (n^2 (n - 1)); the test
# rebuilds it from survey's number: (G - 1)/G * svy_var + squares / (n^2 (n - 1)).
set.seed(7)
G <- 25
sizes <- sample(1:6, G, replace = TRUE)
cl <- rep(seq_len(G) - 1L, sizes)
effect <- rnorm(G, 0, 0.3)
x <- round(effect[cl + 1] + rnorm(length(cl), 0.1, 0.5), 6)
des <- svydesign(ids = ~cl, data = data.frame(x = x, cl = cl), weights = rep(1, length(x)))
sm <- svymean(~x, des)
out$clustered <- list(x = x, cluster = cl, svymeanSE = unname(SE(sm))[1], svymean = unname(coef(sm))[1],
                      G = G, call = "svymean(~x, svydesign(ids = ~cl, weights = rep(1, n)))")

writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, na = "null"), "tests/reference/bootstrap/r.json")
cat("wrote tests/reference/bootstrap/r.json\n")
