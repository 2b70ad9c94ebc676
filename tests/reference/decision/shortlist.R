# Reference values for tests/decision/shortlist.test.ts.
# Run from the repository root: Rscript tests/reference/decision/shortlist.R > tests/reference/decision/shortlist.json
# For each candidate c != best (alpha) on examples/scores.csv and each scope (overall, then each
# stratum in order of first appearance), the one-sided paired t test of H0: mean(best - c) <= margin
# against H1: > margin (c is worse than the best by more than the margin), then Holm across the
# candidate's checks with p.adjust(method = "holm").
s <- read.csv("examples/scores.csv", stringsAsFactors = FALSE)
margin <- 0.05
strata <- unique(s$stratum[s$model == "alpha"])
wide <- function(m) { x <- s[s$model == m, ]; x[order(x$item), ] }
best <- wide("alpha")
out <- list()
for (c in c("beta", "gamma")) {
  cand <- wide(c)
  stopifnot(identical(best$item, cand$item))
  scopes <- c("overall", strata)
  p <- sapply(scopes, function(h) {
    keep <- if (h == "overall") rep(TRUE, nrow(best)) else best$stratum == h
    t.test(best$score[keep], cand$score[keep], paired = TRUE, mu = margin, alternative = "greater")$p.value
  })
  upper <- sapply(scopes, function(h) {
    keep <- if (h == "overall") rep(TRUE, nrow(best)) else best$stratum == h
    # upper 95% bound of cand - best = -(lower bound of best - cand)
    -t.test(best$score[keep], cand$score[keep], paired = TRUE, alternative = "greater", conf.level = 0.95)$conf.int[1]
  })
  # Holm's level of each check: 1 - alpha / k, k = the number of p-values at least its own.
  k <- length(p) - rank(p, ties.method = "first") + 1
  holmUpper <- sapply(seq_along(scopes), function(j) {
    h <- scopes[j]
    keep <- if (h == "overall") rep(TRUE, nrow(best)) else best$stratum == h
    -t.test(best$score[keep], cand$score[keep], paired = TRUE, alternative = "greater", conf.level = 1 - 0.05 / k[j])$conf.int[1]
  })
  out[[c]] <- list(scopes = unname(scopes), pValue = unname(p), adjustedPValue = unname(p.adjust(p, method = "holm")), upper = unname(upper), holmLevel = 1 - 0.05 / k, holmUpper = unname(holmUpper))
}
cat(jsonlite_free <- paste0("{\n", paste(sapply(names(out), function(c) {
  o <- out[[c]]
  num <- function(v) paste(sprintf("%.17g", v), collapse = ", ")
  sprintf('  "%s": {\n    "scopes": [%s],\n    "pValue": [%s],\n    "adjustedPValue": [%s],\n    "upper": [%s],\n    "holmLevel": [%s],\n    "holmUpper": [%s]\n  }', c,
          paste0('"', o$scopes, '"', collapse = ", "), num(o$pValue), num(o$adjustedPValue), num(o$upper), num(o$holmLevel), num(o$holmUpper))
}), collapse = ",\n"), ',\n  "margin": 0.05,\n  "R": "', R.version.string, '"\n}\n'))
