# Reference values for the cost checks of tests/decision/shortlist-cost.test.ts.
# Run from the repository root:
#   Rscript tests/reference/decision/shortlist-cost.R > tests/reference/decision/shortlist-cost.json
#
# An independent computation (base R, not the TypeScript code) of `shortlist --policy`:
# per-document cost under the README's attribution rule (an item's cost is its outcome's price
# and counts in its own stratum; a stratum's cost per document is the mean, over the documents
# with an item in it, of those items' costs; overall, total cost / documents), each candidate's
# cost per document with t.test()$conf.int, and for each candidate against the cheapest
# t.test(d, mu = cost_margin, alternative = "greater") (d = cost_c - cost_cheapest per document):
# its p-value, its one-sided lower bound, and the two-sided interval of d; the score checks against
# the best, t.test(best, c, paired = TRUE, mu = margin, alternative = "greater"); Holm across the
# candidate's score checks then cost checks with p.adjust(method = "holm"); and each check's
# bound at Holm's level 1 - alpha / k (k = how many of the candidate's p-values are at least its own).
#
# Cases: examples/scores.csv (every document in one stratum) with margin 0.2 and cost margin 0.1,
# and tests/reference/decision/cost-spanning.csv (9 of its 30 documents span two strata; made by
# tests/reference/decision/cost-spanning.py) with both margins 0. Prices: examples/policy.yaml's costs line.
alpha <- 0.05
line <- grep("^costs:", readLines("examples/policy.yaml"), value = TRUE)
pairs <- regmatches(line, gregexpr("[a-z_]+: *[0-9.]+", line))[[1]]
price <- setNames(as.numeric(sub(".*: *", "", pairs)), sub(":.*", "", pairs))

num <- function(v) sprintf("%.17g", v)
vec <- function(v) paste0("[", paste(num(v), collapse = ", "), "]")

one <- function(path, margin, cost_margin) {
  s <- read.csv(path, stringsAsFactors = FALSE)
  models <- unique(s$model)
  items <- unique(s$item)
  strata <- unique(s$stratum)
  get <- function(m) { x <- s[s$model == m, ]; x[match(items, x$item), ] }
  w <- lapply(setNames(models, models), get)
  docs <- unique(w[[1]]$cluster)
  cost_of <- function(m, keep) {
    x <- w[[m]]
    d <- if (is.null(keep)) docs else docs[docs %in% x$cluster[x$stratum == keep]]
    sapply(d, function(doc) sum(price[x$outcome[x$cluster == doc & (is.null(keep) | x$stratum == if (is.null(keep)) "" else keep)]]))
  }
  scopes <- c("overall", strata)
  costs <- lapply(setNames(models, models), function(m) lapply(setNames(scopes, scopes), function(h) unname(cost_of(m, if (h == "overall") NULL else h))))
  means <- sapply(models, function(m) mean(w[[m]]$score))
  best <- models[which.max(means)]
  cheapest <- models[which.min(sapply(models, function(m) mean(costs[[m]]$overall)))]
  out <- c()
  for (m in models) {
    cs <- sapply(scopes, function(h) {
      x <- costs[[m]][[h]]
      ci <- t.test(x)$conf.int
      sprintf('"%s": {"documents": %d, "estimate": %s, "confidenceInterval": %s}', h, length(x), num(mean(x)), vec(ci))
    })
    fam <- list()
    if (m != best) for (h in scopes) {
      keep <- if (h == "overall") rep(TRUE, length(items)) else w[[best]]$stratum == h
      # local(): each check's bound keeps its own scope's scores (an R closure sees the loop's last values otherwise).
      local({
        b <- w[[best]]$score[keep]; x <- w[[m]]$score[keep]
        fam[[length(fam) + 1]] <<- list(kind = "score", scope = h, p = t.test(b, x, paired = TRUE, mu = margin, alternative = "greater")$p.value,
          bound = function(level) -t.test(b, x, paired = TRUE, alternative = "greater", conf.level = level)$conf.int[1])
      })
    }
    if (m != cheapest) for (h in scopes) {
      d <- costs[[m]][[h]] - costs[[cheapest]][[h]]
      local({
        dd <- d
        fam[[length(fam) + 1]] <<- list(kind = "cost", scope = h, p = t.test(dd, mu = cost_margin, alternative = "greater")$p.value, d = dd,
          bound = function(level) t.test(dd, alternative = "greater", conf.level = level)$conf.int[1])
      })
    }
    score <- c(); cost <- c()
    if (length(fam) > 0) {
      p <- sapply(fam, `[[`, "p")
      adj <- p.adjust(p, method = "holm")
      k <- length(p) - rank(p, ties.method = "first") + 1
      for (j in seq_along(fam)) {
        f <- fam[[j]]
        level <- 1 - alpha / k[j]
        if (f$kind == "score") {
          score <- c(score, sprintf('{"scope": "%s", "pValue": %s, "adjustedPValue": %s, "holmLevel": %s, "holmUpper": %s}', f$scope, num(f$p), num(adj[j]), num(level), num(f$bound(level))))
        } else {
          cost <- c(cost, sprintf('{"scope": "%s", "documents": %d, "estimate": %s, "lowerBound": %s, "twoSidedInterval": %s, "pValue": %s, "adjustedPValue": %s, "holmLevel": %s, "holmLower": %s}',
            f$scope, length(f$d), num(mean(f$d)), num(f$bound(0.95)), vec(t.test(f$d)$conf.int), num(f$p), num(adj[j]), num(level), num(f$bound(level))))
        }
      }
    }
    out <- c(out, sprintf('      "%s": {\n        "costs": {%s},\n        "score": [%s],\n        "cost": [%s]\n      }', m, paste(cs, collapse = ", "), paste(score, collapse = ", "), paste(cost, collapse = ", ")))
  }
  sprintf('{\n    "best": "%s",\n    "cheapest": "%s",\n    "margin": %s,\n    "costMargin": %s,\n    "candidates": {\n%s\n    }\n  }', best, cheapest, num(margin), num(cost_margin), paste(out, collapse = ",\n"))
}

cat(sprintf('{\n  "examples": %s,\n  "spanning": %s,\n  "R": "%s"\n}\n',
  one("examples/scores.csv", 0.2, 0.1), one("tests/reference/decision/cost-spanning.csv", 0, 0), R.version.string))
