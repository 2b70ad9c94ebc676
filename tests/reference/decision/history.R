# Reference values for tests/decision/history.test.ts.
# Run from the repository root: Rscript tests/reference/decision/history.R > tests/reference/decision/history.json
# The change of prod from 2026-11-09 to 2026-11-16 (examples/history/), paired on the items both
# runs scored: per stratum t.test(cur, prev, paired = TRUE); the traffic-reweighted headline of the
# per-item differences with survey (strata, weights W_h / n_h, no fpc) and its z test; then Holm
# across the five p-values (headline first, strata in file order) with p.adjust(method = "holm").
suppressMessages(library(survey))
prev <- read.csv("examples/history/2026-11-09.csv", stringsAsFactors = FALSE)
cur <- read.csv("examples/history/2026-11-16.csv", stringsAsFactors = FALSE)
d <- merge(cur, prev, by = c("item", "model", "stratum"), suffixes = c(".cur", ".prev"))
d$diff <- d$score.cur - d$score.prev
traffic <- c(routine = 0.72, rare_clause = 0.05, past_failure = 0.03, negative_control = 0.20)
strata <- unique(cur$stratum)
d$w <- traffic[d$stratum] / as.numeric(table(d$stratum)[d$stratum])
design <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = d)
m <- svymean(~diff, design)
est <- as.numeric(coef(m)); se <- as.numeric(SE(m))
ci <- as.numeric(confint(m))
p <- c(2 * pnorm(-abs(est / se)))
rows <- list()
for (h in strata) {
  x <- d[d$stratum == h, ]
  t <- t.test(x$score.cur, x$score.prev, paired = TRUE)
  p <- c(p, t$p.value)
  rows[[h]] <- c(mean(x$diff), t$conf.int[1], t$conf.int[2])
}
adj <- p.adjust(p, method = "holm")
num <- function(v) paste(ifelse(is.na(v), "null", sprintf("%.17g", v)), collapse = ", ")
cat("{\n")
cat(sprintf('  "scopes": ["headline", %s],\n', paste0('"', strata, '"', collapse = ", ")))
cat(sprintf('  "estimate": [%s],\n', num(c(est, sapply(rows, `[`, 1)))))
cat(sprintf('  "low": [%s],\n', num(c(ci[1], sapply(rows, `[`, 2)))))
cat(sprintf('  "high": [%s],\n', num(c(ci[2], sapply(rows, `[`, 3)))))
cat(sprintf('  "pValue": [%s],\n', num(p)))
cat(sprintf('  "adjustedPValue": [%s],\n', num(adj)))
cat(sprintf('  "R": "%s"\n}\n', R.version.string))
