# Reference values for benchplan judge (issue 30), from R: HC3 robust SEs (sandwich::vcovHC),
# Wilson intervals (prop.test, correct = FALSE), Pearson r with the Fisher-z interval (cor.test),
# and the Rogan–Gladen delta-method SE with a numerical gradient (independent of the closed form
# in src/judge/rogan-gladen.ts).
# Run from the repository root: Rscript tests/reference/judge/judge_reference.R
# Writes tests/reference/judge/judge-r.json.
suppressPackageStartupMessages({ library(sandwich); library(lmtest) })
d <- read.csv("examples/judge-labels.csv", stringsAsFactors = FALSE)
lab <- d[!is.na(d$score), ]
lab$error <- lab$judge - lab$score
lab$self <- as.numeric(lab$model == "gamma")
fit <- lm(error ~ score + length + position + self, data = lab)
hc3 <- sqrt(diag(vcovHC(fit, type = "HC3")))
# A second, small case: y on x with a lopsided design (leverage matters).
y2 <- c(0, 1, -1, 0, 0, 1, 0, -1, 0, 1, 0, 0)
x2 <- c(1, 2, 3, 4, 5, 6, 7, 8, 9, 30, 2, 1)
fit2 <- lm(y2 ~ x2)
hc3b <- sqrt(diag(vcovHC(fit2, type = "HC3")))
# Agreement on all labelled rows (0/1 judge and labels).
acc <- sum(lab$judge == lab$score); n <- nrow(lab)
pos <- lab$score == 1
wil <- function(x, m) as.numeric(prop.test(x, m, correct = FALSE)$conf.int)
sens <- c(sum(lab$judge[pos] == 1), sum(pos))
spec <- c(sum(lab$judge[!pos] == 0), sum(!pos))
# Pearson with the Fisher interval on a graded case: judge = length/500 + score (made-up graded scores).
g <- lab$length / 500 + lab$score
ct <- cor.test(g, lab$score)
# Rogan–Gladen per candidate, Se and Sp pooled, delta method with a numerical gradient.
rg <- function(p, se, sp) (p + sp - 1) / (se + sp - 1)
num_grad <- function(f, x, h = 1e-6) sapply(seq_along(x), function(i) { e <- replace(numeric(length(x)), i, h); (f(x + e) - f(x - e)) / (2 * h) })
rgs <- lapply(c("alpha", "beta", "gamma"), function(m) {
  rows <- d[d$model == m, ]
  N <- nrow(rows); p <- mean(rows$judge)
  se <- sens[1] / sens[2]; sp <- spec[1] / spec[2]
  theta <- c(p, se, sp)
  V <- diag(c(p * (1 - p) / N, se * (1 - se) / sens[2], sp * (1 - sp) / spec[2]))
  gr <- num_grad(function(t) rg(t[1], t[2], t[3]), theta)
  list(model = m, judgePositive = sum(rows$judge), judged = N, estimate = rg(p, se, sp), standardError = sqrt(drop(t(gr) %*% V %*% gr)))
})
out <- list(
  source = "R sandwich::vcovHC(type = 'HC3'), prop.test(correct = FALSE), cor.test, numerical-gradient delta method",
  hc3Example = list(terms = names(coef(fit)), coefficients = unname(coef(fit)), standardError = unname(hc3), n = n),
  hc3Small = list(y = y2, x = x2, coefficients = unname(coef(fit2)), standardError = unname(hc3b)),
  agreement = list(n = n, accuracy = c(acc, n), accuracyInterval = wil(acc, n), sensitivity = sens, sensitivityInterval = wil(sens[1], sens[2]), specificity = spec, specificityInterval = wil(spec[1], spec[2])),
  pearson = list(estimate = unname(ct$estimate), confidenceInterval = as.numeric(ct$conf.int)),
  roganGladen = list(humanPositive = sens[2], truePositive = sens[1], humanNegative = spec[2], trueNegative = spec[1], byCandidate = rgs)
)
writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "tests/reference/judge/judge-r.json")
