# Reference values for designWeightedMean / designHeadline / the cluster design (src/selection),
# from R's survey package. Written independently of the TypeScript: each case builds a pool, draws
# the design's sample in R, and reports what survey (and, for the population SE's phase-1 part,
# the two-phase formula coded here by hand) gives.
# Run: Rscript tests/reference/selection/design_reference.R > tests/reference/selection/design.json
suppressMessages({ library(survey); library(jsonlite) })
set.seed(20261202)
z <- qnorm(0.975)

design_file <- function(pool, cells, sampling) {
  list(kind = "benchplan-selection-design", version = 1L, pool = "reference", a = "A", b = "B",
       method = if (sampling == "poisson") "active" else "disagreement", sampling = sampling,
       equality = "reference", budget = max(1L, sum(pool$sel)), auditShare = 0.1, seed = "0",
       poolSize = nrow(pool), selected = sum(pool$sel),
       cells = lapply(seq_len(nrow(cells)), function(h) list(cell = cells$cell[h], stratum = cells$stratum[h], kind = cells$kind[h],
                                                           size = cells$M[h], sampled = cells$m[h], inclusionProbability = cells$m[h] / cells$M[h])),
       rows = lapply(seq_len(nrow(pool)), function(i) {
         r <- list(item = pool$item[i], stratum = pool$stratum[i], kind = pool$kind[i], cell = pool$cell[i],
                   inclusionProbability = pool$pi[i], selected = pool$sel[i])
         if (!is.null(pool$doc)) r$cluster <- pool$doc[i]
         r
       }))
}
labels_of <- function(pool) lapply(which(pool$sel), function(i) list(item = pool$item[i], a = pool$ya[i], b = pool$yb[i]))
est <- function(e, se) list(estimate = unname(e), standardError = unname(se), interval = unname(c(e - z * se, e + z * se)))

# ---------------------------------------------------------------- A. item-stratified design, traffic weights
# 3 strata x agree/disagree; agreeing items score the same for A and B. A simple random sample
# without replacement in each cell.
NS <- c(routine = 120, rare = 50, neg = 30)
traffic <- c(routine = 0.75, rare = 0.05, neg = 0.20)
pool <- data.frame(stratum = rep(names(NS), NS), stringsAsFactors = FALSE)
pool$item <- sprintf("i%03d", seq_len(nrow(pool)))
pool$kind <- ifelse(runif(nrow(pool)) < ifelse(pool$stratum == "rare", 0.5, 0.8), "agree", "disagree")
pool$cell <- paste0(pool$stratum, "/", pool$kind)
pool$ya <- rbinom(nrow(pool), 1, ifelse(pool$stratum == "rare", 0.6, 0.88))
pool$yb <- ifelse(pool$kind == "agree", pool$ya, rbinom(nrow(pool), 1, 0.5))
cellsA <- unique(pool[, c("cell", "stratum", "kind")])
cellsA$M <- as.integer(table(pool$cell)[cellsA$cell])
cellsA$m <- as.integer(ifelse(cellsA$kind == "disagree", pmax(2, round(0.7 * cellsA$M)), pmax(3, round(0.12 * cellsA$M))))
pool$sel <- FALSE
for (h in seq_len(nrow(cellsA))) pool$sel[sample(which(pool$cell == cellsA$cell[h]), cellsA$m[h])] <- TRUE
pool$pi <- (cellsA$m / cellsA$M)[match(pool$cell, cellsA$cell)]
s <- pool[pool$sel, ]
s$M <- cellsA$M[match(s$cell, cellsA$cell)]
des <- svydesign(ids = ~1, strata = ~cell, fpc = ~M, data = s)
s$w <- weights(des)
Ns <- NS[s$stratum]
s$a_t <- traffic[s$stratum] / Ns
# The population SE: add the phase-1 variance of a stratified pool, by hand:
# V1 = sum_s Ns/(Ns-1) sum_{i in s} w_i (a_i (y_i - ybar_s))^2, ybar_s = sum_{i in s} w_i y_i / Ns.
phase1 <- function(y, a) {
  ybar <- tapply(s$w * y, s$stratum, sum) / NS[names(tapply(s$w * y, s$stratum, sum))]
  e <- a * (y - ybar[s$stratum])
  sum(sapply(names(NS), function(g) { k <- s$stratum == g; NS[[g]] / (NS[[g]] - 1) * sum(s$w[k] * e[k]^2) }))
}
pool$p1 <- (NS[pool$stratum] / traffic[pool$stratum]) * 1e-6
caseA <- lapply(list(a = s$ya, b = s$yb, d = s$ya - s$yb), function(y) {
  s$y <- y
  d2 <- update(des, y = y)
  by <- svyby(~y, ~stratum, d2, svymean)
  ct <- svycontrast(by, traffic[as.character(by$stratum)])
  tt <- svytotal(~I(a_t * y), update(d2, a_t = s$a_t))
  v2 <- as.numeric(SE(ct))^2
  v1 <- phase1(y, s$a_t)
  pool$yy <- NA; pool$yy[pool$sel] <- y
  tp <- svymean(~yy, twophase(id = list(~item, ~item), strata = list(~stratum, ~cell), probs = list(~p1, NULL), subset = ~sel, data = pool))
  strata <- lapply(names(NS), function(g) {
    k <- s$stratum == g
    dm <- svymean(~y, subset(d2, stratum == g))
    list(stratum = g, estimate = unname(coef(dm)), poolStandardError = as.numeric(SE(dm)))
  })
  list(headline = c(est(coef(ct), sqrt(v1 + v2)), list(poolStandardError = sqrt(v2), totalEstimate = unname(coef(tt)), totalStandardError = as.numeric(SE(tt)),
                                                    twophaseStandardError = as.numeric(SE(tp)))),
       strata = strata)
})
A <- list(calls = c("svycontrast(svyby(~y, ~stratum, svydesign(ids = ~1, strata = ~cell, fpc = ~M), svymean), traffic)",
                    "svytotal(~I(a * y), same design), a = traffic_s / N_s",
                    "svymean(~y, twophase(id = list(~item, ~item), strata = list(~stratum, ~cell), probs = list(~p1, NULL), subset = ~sel)), p1 = 1e-6 N_s / traffic_s"),
          traffic = as.list(traffic), design = design_file(pool, cellsA, "stratified"), labels = labels_of(pool), results = caseA)

# ---------------------------------------------------------------- B. whole-cluster design
# 36 documents of 3-9 slots in 2 strata (a document's slots share its stratum); a document is
# "disagree" when any slot's outputs differ. Simple random samples of documents within cells;
# every slot of a chosen document labelled. Slots of a document lean alike (a document effect).
docs <- data.frame(doc = sprintf("d%02d", 1:36), stratum = rep(c("routine", "rare"), c(24, 12)), size = sample(3:9, 36, replace = TRUE), tilt = runif(36, -0.3, 0.3))
poolB <- do.call(rbind, lapply(seq_len(nrow(docs)), function(k) {
  dd <- docs[k, ]
  agree <- runif(dd$size) < 0.88
  ya <- rbinom(dd$size, 1, 0.7 + dd$tilt / 2)
  yb <- ifelse(agree, ya, rbinom(dd$size, 1, 0.5 - dd$tilt))
  data.frame(doc = dd$doc, stratum = dd$stratum, item = sprintf("%s-s%d", dd$doc, seq_len(dd$size)), kind = ifelse(agree, "agree", "disagree"), ya = ya, yb = yb, stringsAsFactors = FALSE)
}))
dockind <- tapply(poolB$kind == "disagree", poolB$doc, any)
poolB$cell <- paste0(poolB$stratum, "/", ifelse(dockind[poolB$doc], "disagree", "agree"))
cellsB <- unique(poolB[, c("cell", "stratum")])
cellsB$kind <- sub(".*/", "", cellsB$cell)
cellsB$M <- as.integer(sapply(cellsB$cell, function(h) length(unique(poolB$doc[poolB$cell == h]))))
cellsB$m <- as.integer(pmin(cellsB$M, ifelse(cellsB$kind == "disagree", pmax(2, round(0.6 * cellsB$M)), pmax(2, round(0.25 * cellsB$M)))))
pick <- function(x, k) x[sample.int(length(x), k)]
chosen <- unlist(lapply(seq_len(nrow(cellsB)), function(h) pick(unique(poolB$doc[poolB$cell == cellsB$cell[h]]), cellsB$m[h])))
poolB$sel <- poolB$doc %in% chosen
poolB$pi <- (cellsB$m / cellsB$M)[match(poolB$cell, cellsB$cell)]
N <- nrow(poolB)
sB <- poolB[poolB$sel, ]
sB$M <- cellsB$M[match(sB$cell, cellsB$cell)]
desB <- svydesign(ids = ~doc, strata = ~cell, fpc = ~M, data = sB)
sB$w <- weights(desB)
NSB <- table(poolB$stratum)
trafficB <- c(routine = 0.8, rare = 0.2)
# Phase 1 by document: the pool's cluster-robust variance C/(C-1) sum_{c in pool} z_c^2,
# z_c = sum_{i in c} a_i (y_i - centre_i), estimated from the sampled documents by Horvitz-Thompson:
# C/(C-1) sum_{c sampled} w_c z_c^2, with C the pool's documents.
phase1B <- function(y, a, centre) {
  zc <- tapply(a * (y - centre), sB$doc, sum)
  wc <- tapply(sB$w, sB$doc, mean)[names(zc)]
  C <- length(unique(poolB$doc))
  C / (C - 1) * sum(wc * zc^2)
}
caseB <- lapply(list(a = sB$ya, b = sB$yb, d = sB$ya - sB$yb), function(y) {
  d2 <- update(desB, y = y, yN = y / N, yT = y * trafficB[sB$stratum] / as.numeric(NSB[sB$stratum]))
  tN <- svytotal(~yN, d2)
  e <- unname(coef(tN))
  v1 <- phase1B(y, 1 / N, e)
  tT <- svytotal(~yT, d2)
  ybar <- tapply(sB$w * y, sB$stratum, sum) / as.numeric(NSB[names(tapply(sB$w * y, sB$stratum, sum))])
  v1T <- phase1B(y, trafficB[sB$stratum] / as.numeric(NSB[sB$stratum]), ybar[sB$stratum])
  # the interval: t with the design's degrees of freedom, degf = sampled documents - cells
  tq <- qt(0.975, degf(d2))
  se <- sqrt(as.numeric(SE(tN))^2 + v1); seT <- sqrt(as.numeric(SE(tT))^2 + v1T)
  list(pool = c(est(e, se), list(poolStandardError = as.numeric(SE(tN)), degf = degf(d2), tInterval = c(e - tq * se, e + tq * se))),
       traffic = c(est(coef(tT), seT), list(poolStandardError = as.numeric(SE(tT)), tInterval = unname(c(coef(tT) - tq * seT, coef(tT) + tq * seT)))))
})
full <- svymean(~d, svydesign(ids = ~doc, data = transform(poolB, d = ya - yb)))
B <- list(calls = c("svytotal(~I(y / N), svydesign(ids = ~doc, strata = ~cell, fpc = ~M)) (the pool SE); phase 1 by document by hand",
                    "svytotal(~I(y * traffic_s / N_s), same design) (traffic-weighted)",
                    "every document labelled: svymean(~d, svydesign(ids = ~doc))"),
          traffic = as.list(trafficB), design = design_file(poolB, cellsB, "cluster"), labels = labels_of(poolB), results = caseB,
          fullyLabelled = list(labels = lapply(seq_len(N), function(i) list(item = poolB$item[i], a = poolB$ya[i], b = poolB$yb[i])),
                               estimate = unname(coef(full)), standardError = as.numeric(SE(full))))

# ---------------------------------------------------------------- C. Poisson (active) design, traffic-weighted headline
poolC <- pool[, c("item", "stratum", "kind", "cell", "ya", "yb")]
poolC$pi <- ifelse(poolC$kind == "disagree", 0.6, 0.08)
poolC$sel <- runif(nrow(poolC)) < poolC$pi
sC <- poolC[poolC$sel, ]
sC$aT <- traffic[sC$stratum] / NS[sC$stratum]
desC <- svydesign(ids = ~1, probs = ~pi, pps = poisson_sampling(sC$pi), data = sC)
caseC <- lapply(list(a = sC$ya, b = sC$yb, d = sC$ya - sC$yb), function(y) {
  t <- svytotal(~ay, update(desC, ay = sC$aT * y))
  list(estimate = unname(coef(t)), poolStandardError = as.numeric(SE(t)))
})
cellsC <- unique(poolC[, c("cell", "stratum", "kind")]); cellsC$M <- as.integer(table(poolC$cell)[cellsC$cell]); cellsC$m <- as.integer(table(factor(sC$cell, levels = cellsC$cell)))
C <- list(call = "svytotal(~I(a * y), svydesign(ids = ~1, probs = ~pi, pps = poisson_sampling(pi))), a = traffic_s / N_s",
          traffic = as.list(traffic), design = design_file(poolC, cellsC, "poisson"), labels = labels_of(poolC), results = caseC)

cat(toJSON(list(generator = "tests/reference/selection/design_reference.R", survey = as.character(packageVersion("survey")),
                stratified = A, cluster = B, poisson = C), auto_unbox = TRUE, digits = NA, pretty = TRUE))
