# Reference values for src/paired/collapse-strata.ts and auto's collapsed stratified studentized
# bootstrap (src/paired/auto-interval.ts): strata with fewer than 3 items are pooled with a
# neighbour ("collapsed strata", Cochran 1977 §5A.12; Wolter 2007 §2.5).
# Independent of the TypeScript: the collapse rule is re-implemented here from its documented
# statement (smallest stratum below 3 items, ties the highest index, merged into its smaller
# neighbour in index order, ties the lower index; repeat), the standard error of the stratified
# mean on the collapsed design is R survey's svymean, and the interval is R boot's
# boot.ci(type = "stud") with boot(..., strata = collapsed) on recorded resamples.
# For a stratum of ONE item the JSON also records survey's own lonely-PSU answers
# (options(survey.lonely.psu = "adjust" / "average")) beside the collapsed SE, for comparison only.
# Run: Rscript tests/reference/strata-collapse/collapse_reference.R > tests/reference/strata-collapse/collapse.json
suppressPackageStartupMessages({ library(boot); library(survey); library(jsonlite) })
set.seed(20261202)
collapse_groups <- function(h, min_items = 3) {
  labels <- sort(unique(h))
  groups <- lapply(labels, function(x) x)
  size <- function(g) sum(h %in% g)
  repeat {
    if (length(groups) < 2) break
    sizes <- vapply(groups, size, 0)
    small <- which(sizes < min_items)
    if (length(small) == 0) break
    pick <- max(small[sizes[small] == min(sizes[small])])
    into <- if (pick == 1) 2 else if (pick == length(groups)) pick - 1 else if (sizes[pick + 1] < sizes[pick - 1]) pick + 1 else pick - 1
    first <- min(pick, into); second <- max(pick, into)
    groups[[first]] <- c(groups[[first]], groups[[second]])
    groups[[second]] <- NULL
  }
  groups
}
collapsed_index <- function(h, groups) vapply(h, function(x) which(vapply(groups, function(g) x %in% g, TRUE)), 0L)
stat_for <- function(hc) function(x, i) {
  y <- x[i]; hh <- hc[i]; n <- length(y); est <- 0; v <- 0
  for (k in unique(hh)) { yk <- y[hh == k]; w <- length(yk) / n; est <- est + w * mean(yk); if (length(yk) > 1) v <- v + w^2 * var(yk) / length(yk) }
  c(est, v)
}
make_case <- function(name, sizes, means, sds, R = 999, conf = 0.95) {
  h <- rep(seq_along(sizes) - 1L, sizes)
  x <- round(unlist(mapply(function(m, mu, s) mu + s * (exp(rnorm(m)) - exp(0.5)) / 2.16, sizes, means, sds, SIMPLIFY = FALSE)), 6)
  groups <- collapse_groups(h)
  hc <- collapsed_index(h, groups)
  d <- svydesign(ids = ~1, strata = ~hc, data = data.frame(y = x, hc = hc))
  m <- svymean(~y, d)
  b <- boot(x, stat_for(hc), R = R, strata = hc)
  ci <- boot.ci(b, conf = conf, type = "stud")$student
  out <- list(name = name, values = x, strata = h, groups = groups, collapsedStrata = hc - 1L,
              estimate = unname(coef(m)), standardError = unname(SE(m)[1]), degf = degf(d),
              confidenceLevel = conf, t0 = b$t0, estimates = b$t[, 1], standardErrors = sqrt(b$t[, 2]), interval = ci[4:5])
  if (any(table(h) == 1)) {
    d0 <- svydesign(ids = ~1, strata = ~h, data = data.frame(y = x, h = h))
    lonely <- list()
    for (opt in c("adjust", "average")) { options(survey.lonely.psu = opt); lonely[[opt]] <- unname(SE(svymean(~y, d0))[1]) }
    options(survey.lonely.psu = "fail")
    out$lonelyPsuStandardError <- lonely
  }
  out
}
cases <- list(
  make_case("coverage design at n = 30: strata 21/6/2/2", c(21, 6, 2, 2), c(0.02, 0.1, 0.3, -0.2), c(0.3, 0.6, 1, 1.5)),
  make_case("strata 3/2/2/3: a tie between two 2-item strata", c(3, 2, 2, 3), c(0, 0.2, -0.1, 0.3), c(1, 1, 1, 1)),
  make_case("strata 10/1: a lonely item", c(10, 1), c(0, 0.5), c(1, 1)),
  make_case("strata 1/5/1/2/8: small strata at both ends and inside", c(1, 5, 1, 2, 8), c(0, 0.1, 0.2, 0.3, 0.4), c(1, 0.5, 1, 1, 0.3))
)
out <- list(R = R.version.string, boot = as.character(packageVersion("boot")), survey = as.character(packageVersion("survey")), cases = cases)
cat(toJSON(out, digits = NA, auto_unbox = FALSE, null = "null"))
