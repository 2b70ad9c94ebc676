# Reference Cohen's kappa for tests/agreement/cohen.test.ts from R psych::cohen.kappa.
# Run from the repository root, after reference.py wrote inputs.json:
#   Rscript tests/reference/agreement/psych.R
# Writes tests/reference/agreement/psych.json: for each pair of label vectors,
#   ck <- psych::cohen.kappa(cbind(a, b))   (NA = missing; table() drops incomplete pairs)
#   kappa = ck$kappa, standardError = sqrt(ck$var.kappa),
#   interval = ck$confid["unweighted kappa", c("lower", "upper")]  (kappa -/+ qnorm(0.975) * SE)
suppressPackageStartupMessages({ library(psych); library(jsonlite) })
here <- "tests/reference/agreement"
inputs <- fromJSON(file.path(here, "inputs.json"), simplifyVector = FALSE)

vec <- function(x) sapply(x, function(v) if (is.null(v)) NA_character_ else as.character(v))

one <- function(a, b) {
  ck <- cohen.kappa(cbind(vec(a), vec(b)))
  list(
    kappa = ck$kappa,
    standardError = sqrt(ck$var.kappa),
    interval = unname(ck$confid["unweighted kappa", c("lower", "upper")]),
    n = sum(!is.na(vec(a)) & !is.na(vec(b)))
  )
}

out <- list(
  source = paste0(R.version.string, ", psych ", packageVersion("psych"), ": cohen.kappa(cbind(a, b))"),
  wikipedia = one(inputs$cohenWikipedia$a, inputs$cohenWikipedia$b),
  missing = one(inputs$cohenMissing$a, inputs$cohenMissing$b),
  examples = list()
)
for (type in names(inputs$examples)) {
  labels <- inputs$examples[[type]]$labels
  a <- lapply(labels, function(row) row[[1]])
  b <- lapply(labels, function(row) row[[2]])
  out$examples[[type]] <- one(a, b)
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), file.path(here, "psych.json"))
