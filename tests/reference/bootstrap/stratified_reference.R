# Reference values for stratified bootstrap results, from R survey and boot, on the data sets of
# tests/reference/bootstrap/stratified.json (written by stratified_reference.py: run that first).
# Run: Rscript tests/reference/bootstrap/stratified_reference.R  (writes stratified-r.json)
# The tests read the JSON; they never run R.
#
# 1. The analytic (method 't') interval of a stratified mean: svymean + confint(df = degf(design)).
#    - unweighted: svydesign(ids = ~1, strata = ~s): SE^2 = sum_h (N_h/N)^2 s_h^2 / N_h, df = N - H.
#    - weighted (traffic W_h): weights W_h / N_h per item (sum W = 1): svymean = sum_h W_h mean_h,
#      SE^2 = sum_h W_h^2 s_h^2 / N_h, df = N - H.
#    - clusters within strata, unweighted: survey's stratified cluster variance is
#      sum_h C_h/(C_h - 1) sum_c (T_c - Tbar_h)^2 / N^2 (T_c: cluster total of y - ybar); benchplan
#      keeps Miller's convention (no C_h/(C_h - 1)) and adds sum_h sum_i (y_i - ybar_h)^2 / (N^2 (N_h - 1)).
#      The script computes the A_h = sum_c (T_c - Tbar_h)^2 by hand, checks survey's SE^2 is
#      sum_h C_h/(C_h - 1) A_h / N^2 (stopifnot), and stores Miller's variance; df = degf = G - H.
#    - clusters within strata, weighted (sum_h W_h mean_h, each mean_h a ratio over its clusters):
#      per stratum, Miller's variance of mean_h rebuilt from survey as
#      (C_h - 1)/C_h * SE^2(svydesign(ids = ~cl)) + SE^2(svydesign(ids = ~1)) / N_h; combined sum_h W_h^2 V_h.
# 2. The stratified BCa acceleration from boot's infinitesimal jackknife,
#    empinf(data = d, statistic = stat, stype = "w", type = "inf", strata = s): numerical derivatives of
#    the statistic (a function of per-stratum weights) toward each item. From L,
#    a = sum_h n_h^-3 sum L^3 / (6 (sum_h n_h^-2 sum L^2)^1.5) (Davison & Hinkley 1997, §3.7, §5.3.2).
#    boot's own bca.ci uses sum(L^3) / (6 sum(L^2)^1.5), without the n_h scaling: stored as bootBcaCi.
suppressMessages({ library(boot); library(survey); library(jsonlite) })
options(warn = -1)  # svydesign says "No weights or probabilities supplied, assuming equal probability": intended

ref <- fromJSON("tests/reference/bootstrap/stratified.json")
y <- ref$data$y
s <- ref$data$stratum
cl <- ref$data$cluster
W <- ref$data$weights
N <- length(y)
H <- length(unique(s))
Nh <- as.numeric(table(s))
d <- data.frame(y = y, s = s, cl = cl)
d$w <- W[s + 1] / Nh[s + 1]
level <- 0.95

svy <- function(design) {
  m <- svymean(~y, design)
  df <- degf(design)
  list(estimate = unname(coef(m)), standardError = unname(SE(m))[1], df = df,
       interval = unname(confint(m, level = level, df = df)[1, ]))
}

out <- list(R = R.version.string, boot = as.character(packageVersion("boot")),
            survey = as.character(packageVersion("survey")), confidenceLevel = level)

out$unweighted <- svy(svydesign(ids = ~1, strata = ~s, data = d))
out$unweighted$call <- "svymean(~y, svydesign(ids = ~1, strata = ~s)); confint(df = degf)"
out$weighted <- svy(svydesign(ids = ~1, strata = ~s, weights = ~w, data = d))
out$weighted$call <- "svymean(~y, svydesign(ids = ~1, strata = ~s, weights = ~w)), w = W_h / N_h; confint(df = degf)"

# clusters within strata, unweighted
des <- svydesign(ids = ~cl, strata = ~s, data = d)
sc <- svy(des)
r <- y - mean(y)
A <- 0; Bterm <- 0; surveyVar <- 0
for (h in sort(unique(s))) {
  inh <- s == h
  T <- tapply(r[inh], cl[inh], sum)
  C <- length(T)
  Ah <- sum((T - mean(T))^2)
  A <- A + Ah
  surveyVar <- surveyVar + C / (C - 1) * Ah / N^2
  Bterm <- Bterm + sum((y[inh] - mean(y[inh]))^2) / (sum(inh) - 1)
}
stopifnot(abs(surveyVar - sc$standardError^2) < 1e-12 * sc$standardError^2)
miller <- (A + Bterm) / N^2
q <- qt(1 - (1 - level) / 2, sc$df)
out$clusteredUnweighted <- list(estimate = sc$estimate, surveyStandardError = sc$standardError, df = sc$df,
                                standardError = sqrt(miller),
                                interval = c(sc$estimate - q * sqrt(miller), sc$estimate + q * sqrt(miller)),
                                call = "svydesign(ids = ~cl, strata = ~s); Miller = (sum_h A_h + sum_h SS_h/(N_h - 1)) / N^2")

# clusters within strata, weighted
V <- 0; G <- 0; est <- 0
for (h in sort(unique(s))) {
  sub <- d[d$s == h, ]
  C <- length(unique(sub$cl))
  G <- G + C
  vc <- SE(svymean(~y, svydesign(ids = ~cl, data = sub)))[1]^2
  vs <- SE(svymean(~y, svydesign(ids = ~1, data = sub)))[1]^2
  V <- V + W[h + 1]^2 * ((C - 1) / C * vc + vs / nrow(sub))
  est <- est + W[h + 1] * mean(sub$y)
}
q <- qt(1 - (1 - level) / 2, G - H)
out$clusteredWeighted <- list(estimate = est, standardError = sqrt(V), df = G - H,
                              interval = c(est - q * sqrt(V), est + q * sqrt(V)),
                              call = "per stratum: (C_h - 1)/C_h * SE^2(svydesign(ids = ~cl)) + SE^2(svydesign(ids = ~1)) / N_h")

# 2. acceleration from empinf(type = "inf")
dh <- function(L) {
  s2 <- 0; s3 <- 0
  for (h in sort(unique(s))) {
    l <- L[s == h]; n <- length(l)
    s2 <- s2 + sum(l^2) / n^2
    s3 <- s3 + sum(l^3) / n^3
  }
  s3 / (6 * s2^1.5)
}
statUnweighted <- function(data, w) {
  # w: per-item weights, summing to 1 within each stratum (empinf's stype = "w")
  sum(sapply(sort(unique(data$s)), function(h) Nh[h + 1] / N * sum(w[data$s == h] * data$y[data$s == h]) / sum(w[data$s == h])))
}
statWeighted <- function(data, w) {
  sum(sapply(sort(unique(data$s)), function(h) W[h + 1] * sum(w[data$s == h] * data$y[data$s == h]) / sum(w[data$s == h])))
}
Lu <- empinf(data = d, statistic = statUnweighted, stype = "w", type = "inf", strata = d$s)
Lw <- empinf(data = d, statistic = statWeighted, stype = "w", type = "inf", strata = d$s)
out$acceleration <- list(unweighted = dh(Lu), weighted = dh(Lw),
                         bootBcaCiUnweighted = sum(Lu^3) / (6 * sum(Lu^2)^1.5),
                         call = "empinf(data, statistic, stype = 'w', type = 'inf', strata = s); a = sum_h n_h^-3 sum L^3 / (6 (sum_h n_h^-2 sum L^2)^1.5)")

writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "tests/reference/bootstrap/stratified-r.json")
cat("wrote tests/reference/bootstrap/stratified-r.json\n")
