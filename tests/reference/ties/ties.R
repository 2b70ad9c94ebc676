# Reference values for the two "small disagreements" of issue 13 (item 4), from R:
#   McNemar's chi-square when b = c: mcnemar.test(m, correct = TRUE) (R corrects only an asymmetric table)
#   Cohen's kappa at perfect agreement: psych::cohen.kappa(cbind(a, a))
# Run from the repository root:
#   Rscript tests/reference/ties/ties.R > tests/reference/ties/r.json
# (R 4.x, psych, jsonlite). The tests read r.json and never need R.
suppressPackageStartupMessages({
  library(psych)
  library(jsonlite)
})
mc <- lapply(list(c(7, 7), c(1, 1), c(20, 20), c(3, 4), c(1, 0)), function(bc) {
  m <- matrix(c(40, bc[2], bc[1], 25), 2)
  t <- mcnemar.test(m, correct = TRUE)
  list(onlyA = bc[1], onlyB = bc[2], chiSquare = unname(t$statistic), chiSquarePValue = t$p.value)
})
# perfect agreement: 12 items, 5 labels (the case where benchplan's SE was 1.09e-8), and 4 items, 2 labels
labels <- function(n, k) paste0("l", ((0:(n - 1)) * 7 + ((0:(n - 1)) %% 3)) %% k)
ck <- lapply(list(c(12, 5), c(4, 2), c(30, 3)), function(nk) {
  a <- labels(nk[1], nk[2])
  r <- cohen.kappa(cbind(a, a))
  list(labels = a, kappa = r$kappa, varKappa = r$var.kappa, standardError = sqrt(max(0, r$var.kappa)))
})
cat(toJSON(list(generatedBy = "tests/reference/ties/ties.R", psych = as.character(packageVersion("psych")), mcnemar = mc, cohenPerfect = ck),
           digits = NA, auto_unbox = TRUE))
cat("\n")
