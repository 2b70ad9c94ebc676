# Calibrated (double) bootstrap-t on lognormal(0,1) differences at n = 10 (issue 13: the 'skewed continuous' cell).
# Run: python3 bench/skew-calibration-study.py 1000 7 999   (replicates, seed, outer resamples; inner 200). Output: bench/skew-calibration-study.txt
import numpy as np, sys, time
rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv)>2 else 1)
R = int(sys.argv[1]) if len(sys.argv)>1 else 400
n=10; B1=int(sys.argv[3]) if len(sys.argv)>3 else 999; B2=200; a=0.025; truth=0.1
def tstar(x, idx):
    xs = x[idx]; m = xs.mean(-1); s = xs.std(-1, ddof=1)/np.sqrt(x.shape[-1]); return m, s
cov = {'stud':0,'cal':0,'cal_sym':0}; wid={k:0.0 for k in cov}
t0=time.time()
for r in range(R):
    x = np.exp(rng.standard_normal(n)) - np.exp(0.5) + 0.1
    th = x.mean(); se = x.std(ddof=1)/np.sqrt(n)
    idx = rng.integers(0,n,(B1,n)); xs = x[idx]
    m1 = xs.mean(1); s1 = xs.std(1,ddof=1)/np.sqrt(n)
    with np.errstate(divide='ignore', invalid='ignore'):
        t1 = np.where(s1>0,(m1-th)/s1, np.sign(m1-th)*np.inf)
    # inner
    idx2 = rng.integers(0,n,(B1,B2,n))
    xss = np.take_along_axis(xs[:,None,:].repeat(B2,1), idx2, 2)
    m2 = xss.mean(2); s2 = xss.std(2,ddof=1)/np.sqrt(n)
    with np.errstate(divide='ignore', invalid='ignore'):
        t2 = np.where(s2>0,(m2-m1[:,None])/s2, np.sign(m2-m1[:,None])*np.inf)
    p = (t2 <= t1[:,None]).mean(1)  # prepivot
    # studentized
    qlo,qhi = np.quantile(t1,[a,1-a])
    lo,hi = th-se*qhi, th-se*qlo
    cov['stud'] += lo<=truth<=hi; wid['stud']+=hi-lo
    # calibrated: levels from distribution of p
    aL, aU = np.quantile(p,[a,1-a])
    qlo,qhi = np.quantile(t1,[aL,aU])
    lo,hi = th-se*qhi, th-se*qlo
    cov['cal'] += lo<=truth<=hi; wid['cal']+=hi-lo
    # symmetric calibration on |t|
    with np.errstate(invalid='ignore'):
        pa = (np.abs(t2) <= np.abs(t1)[:,None]).mean(1)
    lev = np.quantile(pa, 0.95)
    q = np.quantile(np.abs(t1), lev)
    lo,hi = th-se*q, th+se*q
    cov['cal_sym'] += lo<=truth<=hi; wid['cal_sym']+=hi-lo
for k in cov:
    c=cov[k]/R; print(k, round(c,3), '±', round(np.sqrt(c*(1-c)/R),3), 'width', round(wid[k]/R,2))
print('secs', time.time()-t0)
