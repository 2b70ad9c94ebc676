# Reference values for src/selection estimators, from R's survey package.
# Run: Rscript tests/reference/selection/survey_reference.R > tests/reference/selection/survey.json
suppressMessages({ library(survey); library(jsonlite) })
set.seed(20261201)

# 1. Stratified SRS without replacement: cells (stratum x agree/disagree) with population sizes
#    N_h; svymean with fpc = N_h is the stratified expansion estimate of the pool mean.
cells <- data.frame(cell = c("routine/disagree", "routine/agree", "rare/disagree", "rare/agree", "neg/agree"),
                    N = c(40, 260, 25, 45, 30), n = c(12, 14, 25, 4, 3))
rows <- do.call(rbind, lapply(seq_len(nrow(cells)), function(h) {
  c <- cells[h, ]
  d <- if (grepl("disagree", c$cell)) sample(c(-1, 0, 1), c$n, replace = TRUE, prob = c(0.3, 0.2, 0.5)) else
    sample(c(0, 0, 0, 0, 0, 0, 0, 1), c$n, replace = TRUE)
  data.frame(cell = c$cell, N = c$N, d = d)
}))
des <- svydesign(ids = ~1, strata = ~cell, fpc = ~N, data = rows)
m <- svymean(~d, des)
ci <- confint(m, level = 0.95)
# The same labels as a two-phase design: the pool (phase 1, every item, d unknown unless chosen)
# and the stratified subsample (phase 2); method "full" is survey's default.
pool <- do.call(rbind, lapply(seq_len(nrow(cells)), function(h) {
  c <- cells[h, ]
  d <- rows$d[rows$cell == c$cell]
  data.frame(cell = c$cell, d = c(d, rep(NA, c$N - c$n)), sel = c(rep(TRUE, c$n), rep(FALSE, c$N - c$n)))
}))
pool$id <- seq_len(nrow(pool))
tp <- svymean(~d, twophase(id = list(~id, ~id), strata = list(NULL, ~cell), subset = ~sel, data = pool))
stratified <- list(
  call = "svymean(~d, svydesign(ids = ~1, strata = ~cell, fpc = ~N, data = rows)); confint(level = 0.95)",
  twophaseCall = "svymean(~d, twophase(id = list(~id, ~id), strata = list(NULL, ~cell), subset = ~sel, data = pool))",
  cells = lapply(seq_len(nrow(cells)), function(h) list(cell = cells$cell[h], size = cells$N[h], differences = I(rows$d[rows$cell == cells$cell[h]]))),
  estimate = unname(coef(m)), standardError = as.numeric(SE(m)), interval = unname(as.numeric(ci)),
  populationEstimate = unname(coef(tp)), populationStandardError = as.numeric(SE(tp)))

# 2. Poisson sampling with unequal probabilities: HT total of y - lambda * g (g the judge's
#    prediction for every pool item), plus lambda * sum(g), over N.
N <- 300
g <- sample(c(-1, 0, 0, 0, 1), N, replace = TRUE) * runif(N, 0.5, 1)
y <- ifelse(runif(N) < 0.7, sign(round(g)), sample(c(-1, 0, 1), N, replace = TRUE))
pi <- pmin(1, 0.05 + 0.5 * abs(g))
drawn <- runif(N) < pi
poisson_case <- function(lambda) {
  r <- y - lambda * g
  dat <- data.frame(r = r[drawn], pi = pi[drawn])
  pdes <- svydesign(ids = ~1, probs = ~pi, pps = poisson_sampling(dat$pi), data = dat)
  t <- svytotal(~r, pdes)
  est <- (unname(coef(t)) + lambda * sum(g)) / N
  se <- as.numeric(SE(t)) / N
  # Population SE: add the pool's spread, sum over labelled items of (y - est)^2 / pi, over N^2 (by hand).
  v1 <- sum((y[drawn] - est)^2 / pi[drawn]) / N^2
  list(lambda = lambda, estimate = est, standardError = se, interval = c(est - qnorm(0.975) * se, est + qnorm(0.975) * se),
       populationStandardError = sqrt(se^2 + v1))
}
w <- ((1 - pi) / pi^2)[drawn]
tuned <- min(1, max(0, sum(w * y[drawn] * g[drawn]) / sum(w * g[drawn]^2)))
poisson <- list(
  call = "svytotal(~r, svydesign(ids = ~1, probs = ~pi, pps = poisson_sampling(pi))), r = y - lambda * g",
  rows = lapply(seq_len(N), function(i) if (drawn[i]) list(inclusionProbability = pi[i], difference = y[i], prediction = g[i]) else list(inclusionProbability = pi[i], prediction = g[i])),
  ht = poisson_case(0), fixed = poisson_case(0.8), tuned = poisson_case(tuned))

# 3. Clusters (documents) at phase 1. Every item labelled: the estimate is the pool mean and its
#    SE the cluster-robust one, svymean(~d, svydesign(ids = ~doc)). Partly labelled: the same
#    cluster sums of (N_h / n_h)(d - estimate), by hand (survey's twophase ignores phase-1 clusters
#    in its variance), plus the stratified subsampling variance.
full <- data.frame(cell = rep(c("a", "b"), c(30, 50)), doc = sample(sprintf("doc%02d", 1:16), 80, replace = TRUE),
                   d = sample(c(-1, 0, 0, 1), 80, replace = TRUE))
fm <- svymean(~d, svydesign(ids = ~doc, data = full))
part <- full
part$sel <- FALSE
part$sel[sample(which(part$cell == "a"), 12)] <- TRUE
part$sel[sample(which(part$cell == "b"), 20)] <- TRUE
s2 <- part[part$sel, ]
Nh <- c(a = 30, b = 50); nh <- c(a = 12, b = 20)
W <- Nh / sum(Nh)
yb <- tapply(s2$d, s2$cell, mean)[names(Nh)]
v2 <- tapply(s2$d, s2$cell, var)[names(Nh)]
th <- sum(W * yb)
z <- tapply((Nh / nh)[s2$cell] * (s2$d - th), s2$doc, sum)
C <- length(z)
V1 <- C / (C - 1) * sum(z^2) / sum(Nh)^2
V2 <- sum(W^2 * (1 - nh / Nh) * v2 / nh)
clustered <- list(
  fullCall = "svymean(~d, svydesign(ids = ~doc, data = full))",
  full = list(cells = lapply(c("a", "b"), function(h) list(cell = h, size = unname(Nh[h]), differences = I(full$d[full$cell == h]), clusters = I(full$doc[full$cell == h]))),
              estimate = unname(coef(fm)), standardError = as.numeric(SE(fm))),
  partial = list(cells = lapply(c("a", "b"), function(h) list(cell = h, size = unname(Nh[h]), differences = I(s2$d[s2$cell == h]), clusters = I(s2$doc[s2$cell == h]))),
                 estimate = th, standardError = sqrt(V1 + V2), poolStandardError = sqrt(V2), nClusters = C))

cat(toJSON(list(generator = "tests/reference/selection/survey_reference.R", survey = as.character(packageVersion("survey")),
                stratified = stratified, poisson = poisson, clustered = clustered), auto_unbox = TRUE, digits = NA, pretty = TRUE))
