# Reference values from R for src/distributions/distributions.ts: qt, qchisq (quantiles R computes to
# ~1e-15, where scipy 1.10's t.ppf is only good to ~1e-11), and pt with ncp (the noncentral t:
# Lenth's AS 243 as in R's pnt.c, which noncentralTCdf ports).
# Run: Rscript tests/reference/distributions/distributions.R > tests/reference/distributions/distributions-r.json
num <- function(x) sprintf('%.17g', x)
nct <- list(
  c(1.9723, 263, 2.8), c(1.9723, 263, -2.8), c(-1.9723, 263, 2.8), c(2.2281388519649385, 10, 1.5),
  c(-2.2281388519649385, 10, 1.5), c(0.5, 3, 1), c(3, 3, 1), c(-1, 5, -0.5), c(2, 1, 2), c(1.7, 29.7, 0.3),
  c(1.96, 135.59, 2.82), c(-1.96, 135.59, 2.82), c(10, 20, 8), c(1.98, 99, 5), c(0, 50, 1.2), c(25, 60, 30),
  c(1.9615, 1647, 2.0), c(3, 200, -1), c(2, 5e5, 1.5), c(-0.5, 10, 39)
)
t_df <- c(1, 2, 2.5, 3, 5, 10, 29.7, 79, 100, 263, 1000, 1e4, 1e5, 1e6, 1e9, 1e12)
t_p <- c(1e-8, 0.001, 0.025, 0.1, 0.3, 0.5, 0.8, 0.95, 0.975, 0.995, 0.9999)
chi_df <- c(1, 2, 3.5, 9, 19, 79, 263, 1000, 1e4)
chi_p <- c(1e-10, 0.001, 0.025, 0.05, 0.5, 0.95, 0.975, 0.999)
rows_nct <- vapply(nct, function(k) sprintf('  {"t": %s, "df": %s, "ncp": %s, "value": %s}', num(k[1]), num(k[2]), num(k[3]), num(pt(k[1], k[2], k[3]))), "")
grid_t <- expand.grid(p = t_p, df = t_df)
rows_qt <- sprintf('  {"p": %s, "df": %s, "value": %s}', num(grid_t$p), num(grid_t$df), num(qt(grid_t$p, grid_t$df)))
grid_c <- expand.grid(p = chi_p, df = chi_df)
rows_qc <- sprintf('  {"p": %s, "df": %s, "value": %s}', num(grid_c$p), num(grid_c$df), num(qchisq(grid_c$p, grid_c$df)))
cat('{\n "generator": "tests/reference/distributions/distributions.R",\n "R": "', R.version.string, '",\n',
    ' "noncentralTCdf": [\n', paste(rows_nct, collapse = ',\n'), '\n ],\n',
    ' "studentTQuantile": [\n', paste(rows_qt, collapse = ',\n'), '\n ],\n',
    ' "chiSquareQuantile": [\n', paste(rows_qc, collapse = ',\n'), '\n ]\n}\n', sep = '')
