# Reference Wilson score intervals for tests/costs/wilson.test.ts.
# Run: Rscript tests/reference/costs/wilson.R > tests/reference/costs/wilson-r.json
# prop.test(x, n, correct = FALSE, conf.level = level)$conf.int is the Wilson score interval.
cases <- list(
  c(0, 11, 0.95), c(1, 11, 0.95), c(4, 11, 0.95), c(11, 11, 0.95),
  c(6, 100, 0.95), c(1, 100, 0.95), c(10, 100, 0.95),
  c(259, 286, 0.95), c(193, 283, 0.95), c(259, 279, 0.95),
  c(0, 1, 0.95), c(1, 1, 0.95), c(1, 2, 0.9), c(3, 7, 0.8), c(5, 20, 0.99),
  c(500, 1000, 0.95), c(9999, 10000, 0.95), c(37, 64, 0.5)
)
rows <- character(0)
for (k in cases) {
  ci <- suppressWarnings(prop.test(k[1], k[2], correct = FALSE, conf.level = k[3])$conf.int)
  rows <- c(rows, sprintf('    {"successes": %d, "trials": %d, "confidenceLevel": %s, "interval": [%.17g, %.17g]}',
                          as.integer(k[1]), as.integer(k[2]), format(k[3]), ci[1], ci[2]))
}
cat('{\n  "source": "', R.version.string, ' prop.test(x, n, correct = FALSE)$conf.int",\n  "cases": [\n', sep = '')
cat(paste(rows, collapse = ',\n'))
cat('\n  ]\n}\n')
