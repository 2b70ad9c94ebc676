# Reference for the beta-smoothed interval of a candidate's own 0/1 headline in designHeadline
# (src/selection/design-headline.ts), written from the formula, not from the TypeScript.
# Input: case "stratified" of design.json (design_reference.R): the design, the labels, the
# traffic shares and R's two-phase SE of each candidate's headline (svycontrast(svyby(...)) for the
# subsampling part plus the hand-coded phase-1 part; no constant-cell smoothing).
#   W_h = T_s M_h / N_s (the cell's weight in the headline), m_h labels, x_h ones,
#   p~_h = (x_h + 1/2) / (m_h + 1), p~ = sum W_h p~_h,
#   V~ = V^ - sum W_h^2 s_h^2 / m_h + sum W_h^2 p~_h (1 - p~_h) / m_h,  s_h^2 = x_h (m_h - x_h) / (m_h (m_h - 1)),
#   n* = p~ (1 - p~) / V~ * (qt(a/2, n - 1) / qt(a/2, n - H))^2, x* = n* p^,
#   interval = [qbeta(a/2, x*, n* - x* + 1), qbeta(1 - a/2, x* + 1, n* - x*)]   (svyciprop(method = "beta")'s last step).
# For comparison, svyciprop(method = "beta") itself on the one-phase design (no phase-1 part).
# Run: Rscript tests/reference/selection/headline_beta_smoothed.R > tests/reference/selection/headline_beta_smoothed.json
suppressMessages({ library(survey); library(jsonlite) })
ref <- fromJSON("tests/reference/selection/design.json", simplifyVector = FALSE)$stratified
rows <- do.call(rbind, lapply(ref$design$rows, function(r) data.frame(item = r$item, stratum = r$stratum, cell = r$cell, stringsAsFactors = FALSE)))
lab <- do.call(rbind, lapply(ref$labels, function(l) data.frame(item = l$item, a = l$a, b = l$b)))
traffic <- unlist(ref$traffic)
NS <- table(rows$stratum)
M <- table(rows$cell)
alpha <- 0.05
s <- merge(rows, lab, by = "item")
out <- lapply(c(a = "a", b = "b"), function(k) {
  y <- s[[k]]
  cells <- unique(s$cell)
  st <- sapply(cells, function(h) s$stratum[s$cell == h][1])
  W <- traffic[st] * as.numeric(M[cells]) / as.numeric(NS[st])
  m <- sapply(cells, function(h) sum(s$cell == h))
  x <- sapply(cells, function(h) sum(y[s$cell == h]))
  q <- (x + 0.5) / (m + 1)
  s2 <- ifelse(m > 1, x * (m - x) / (m * (m - 1)), 0)
  p_hat <- sum(W * x / m)
  V <- ref$results[[k]]$headline$standardError^2
  Vt <- V - sum(W^2 * s2 / m) + sum(W^2 * q * (1 - q) / m)
  pt <- sum(W * q)
  n <- nrow(s); H <- length(cells)
  nstar <- pt * (1 - pt) / Vt * (qt(alpha / 2, n - 1) / qt(alpha / 2, n - H))^2
  xs <- nstar * p_hat
  s$y <- y; s$M <- as.numeric(M[s$cell]); s$w <- traffic[s$stratum] / as.numeric(NS[s$stratum]) * s$M / m[s$cell]
  plain <- svyciprop(~y, svydesign(ids = ~1, strata = ~cell, fpc = ~M, weights = ~w, data = s), method = "beta")
  list(estimate = p_hat, smoothedCentre = pt, smoothedVariance = Vt, effectiveSize = nstar,
       interval = c(qbeta(alpha / 2, xs, nstar - xs + 1), qbeta(1 - alpha / 2, xs + 1, nstar - xs)),
       svycipropBetaOnePhase = unname(as.numeric(attr(plain, "ci"))))
})
cat(toJSON(list(generator = "tests/reference/selection/headline_beta_smoothed.R", survey = as.character(packageVersion("survey")),
                input = "design.json: stratified", confidenceLevel = 0.95, results = out), auto_unbox = TRUE, digits = NA, pretty = TRUE), "\n")
