# Reference values for src/strata: the traffic-reweighted headline and the per-stratum scores,
# from R survey. Run from the repository root:
#   Rscript tests/reference/strata/survey.R > tests/reference/strata/survey.json
# (R 4.x, survey 4.1-1, jsonlite). The tests read survey.json and never need R.
#
# The design: one item is one PSU (ids = ~1), strata = the item's stratum, and each item of
# stratum h has weight W_h / n_h, so each stratum's weights sum to its traffic share W_h and the
# weights to 1. No fpc: the items are a with-replacement sample from a large population, so
# survey's variance is sum_h n_h/(n_h - 1) * sum_i (z_hi - zbar_h)^2 with z the linearised
# (influence) values of the ratio mean, which reduces to sum_h W_h^2 s_h^2 / n_h with s_h^2 the
# n_h - 1 sample variance: the estimator src/strata computes. Intervals: confint() on svymean,
# i.e. estimate +/- qnorm(0.975) * SE. Per stratum: svyby(~score, ~stratum, design, svymean),
# whose SE for a domain that is a whole stratum is s_h / sqrt(n_h).
suppressPackageStartupMessages({
  library(survey)
  library(jsonlite)
})

strata_weights <- function(stratum, traffic) {
  n_h <- table(stratum)
  unname(traffic[stratum] / as.numeric(n_h[stratum]))
}

# One case: a scores CSV, traffic shares by stratum, and the models (and pairs) to report.
reference_case <- function(name, path, traffic, models, pairs, level = 0.95) {
  d <- read.csv(path, stringsAsFactors = FALSE)
  wide <- reshape(d[, c("item", "model", "stratum", "score")], idvar = c("item", "stratum"), timevar = "model", direction = "wide")
  wide$w <- strata_weights(wide$stratum, traffic)
  des <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = wide)
  model_out <- lapply(models, function(m) {
    f <- as.formula(paste0("~score.", m))
    est <- svymean(f, des)
    ci <- confint(est, level = level)
    by <- svyby(f, ~stratum, des, svymean)
    by_ci <- confint(by, level = level)
    strata <- lapply(names(traffic), function(h) {
      list(
        stratum = h,
        n = sum(wide$stratum == h),
        mean = unname(coef(by)[h]),
        standardError = as.numeric(SE(by))[match(h, rownames(by))],
        interval = unname(by_ci[h, ])
      )
    })
    list(
      model = m,
      estimate = unname(coef(est)),
      standardError = as.numeric(SE(est)),
      interval = unname(ci[1, ]),
      rawMean = mean(wide[[paste0("score.", m)]]),
      strata = strata
    )
  })
  pair_out <- lapply(pairs, function(p) {
    wide$d <- wide[[paste0("score.", p[1])]] - wide[[paste0("score.", p[2])]]
    des_d <- svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = wide)
    est <- svymean(~d, des_d)
    list(a = p[1], b = p[2], estimate = unname(coef(est)), standardError = as.numeric(SE(est)))
  })
  list(name = name, scores = path, traffic = as.list(traffic), confidenceLevel = level, models = model_out, differences = pair_out)
}

cases <- list(
  reference_case(
    "examples/scores.csv (0/1 scores, 400 items, quota 80/120/100/100)",
    "examples/scores.csv",
    c(routine = 0.72, rare_clause = 0.05, past_failure = 0.03, negative_control = 0.20),
    c("alpha", "beta", "gamma"),
    list(c("alpha", "beta"), c("alpha", "gamma"), c("beta", "gamma"))
  ),
  reference_case(
    "examples/pilot.csv (points, 80 items, 20 a stratum)",
    "examples/pilot.csv",
    c(routine = 0.72, rare_clause = 0.05, past_failure = 0.03, negative_control = 0.20),
    c("candidate", "baseline"),
    list(c("candidate", "baseline"))
  ),
  reference_case(
    "tests/reference/strata/unequal.csv (points, strata of 12, 5 and 7 items), 90% level",
    "tests/reference/strata/unequal.csv",
    c(common = 0.6, rare = 0.3, hard = 0.1),
    c("a", "b"),
    list(c("a", "b")),
    level = 0.90
  )
)

cat(toJSON(list(
  generatedBy = "Rscript tests/reference/strata/survey.R",
  r = R.version.string,
  survey = as.character(packageVersion("survey")),
  cases = cases
), auto_unbox = TRUE, digits = NA, pretty = TRUE))
cat("\n")
