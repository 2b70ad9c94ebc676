# Reference values for src/bootstrap/studentized.ts's `rescale` option (rescaledStratumValues): each
# stratum's values rescaled about their mean, y~ = ybar_h + sqrt(n_h / (n_h - 1)) * (y - ybar_h)
# (Bickel & Freedman 1984; Rao & Wu 1988), so that their variance with divisor n_h is var(y_h).
# Also R survey's svymean SE of the original values and of the rescaled ones (the test uses them to
# check that a rescaled bootstrap is the plain bootstrap on y~ restudentized by the data's own SE).
# Strata 21/6/4 as `auto` leaves the coverage grid's 21/6/2/2 after collapsing, plus a stratum of 2.
# Run: Rscript tests/reference/strata-rescale/rescale_reference.R > tests/reference/strata-rescale/rescale.json
suppressPackageStartupMessages({ library(survey); library(jsonlite) })
set.seed(20261201)
h <- c(rep(1L, 21), rep(2L, 6), rep(3L, 4), rep(4L, 2))
y <- round(c(0.3 * (exp(rnorm(21)) - exp(0.5)) / 2.16 + 0.02,
             0.6 * (exp(rnorm(6)) - exp(0.5)) / 2.16 + 0.1,
             1.2 * (exp(rnorm(4)) - exp(0.5)) / 2.16 + 0.1,
             1.5 * (exp(rnorm(2)) - exp(0.5)) / 2.16 - 0.2), 6)
nh <- ave(y, h, FUN = length)
ybar <- ave(y, h, FUN = mean)
yt <- ybar + sqrt(nh / (nh - 1)) * (y - ybar)
# the defining property, per stratum: mean unchanged, variance with divisor n_h equal to var(y_h)
check <- sapply(split(seq_along(y), h), function(i) c(mean(yt[i]) - mean(y[i]), mean((yt[i] - mean(yt[i]))^2) - var(y[i])))
stopifnot(max(abs(check)) < 1e-12)
se_of <- function(v) unname(SE(svymean(~v, svydesign(ids = ~1, strata = ~h, data = data.frame(v = v, h = h))))[1])
out <- list(R = R.version.string, survey = as.character(packageVersion("survey")),
            values = y, strata = h - 1L, rescaled = yt,
            estimate = mean(y), standardError = se_of(y), standardErrorRescaled = se_of(yt))
cat(toJSON(out, digits = NA, auto_unbox = TRUE))
